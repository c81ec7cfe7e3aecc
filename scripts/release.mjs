#!/usr/bin/env node
// Releasing carryover. Versions and changelogs come from changesets (`pnpm version-packages`, which also
// regenerates the marketplace); then one command builds, packs and publishes every package:
//   node scripts/release.mjs publish --registry <url> [--tag <tag>] [--dry-run] [--packs <dir>]
//   node scripts/release.mjs pack [<dir>]          the tarballs alone (default ./release/packs)
//   node scripts/release.mjs marketplace [--check] write (or check) .claude-plugin/marketplace.json
//   node scripts/release.mjs dir [<dir>]           a release dir for machines without a registry (default ./release)
// A release dir: `node <dir>/carryover.cjs install --recommended`, or
// `claude plugin marketplace add <dir>/marketplace`.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { MARKETPLACE_FILE, marketplaceDrift, writeMarketplace } from "./release/marketplace.mjs";
import { packAll, publishAll } from "./release/publish.mjs";
import { releaseDir } from "./release/release-dir.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const USAGE = `usage: node scripts/release.mjs publish --registry <url> [--tag <tag>] [--dry-run] [--packs <dir>]
       node scripts/release.mjs pack [<dir>]
       node scripts/release.mjs marketplace [--check]
       node scripts/release.mjs dir [<dir>]`;

class UsageError extends Error {}

async function main(argv) {
  const [command, ...rest] = argv;
  const options = {
    registry: { type: "string" },
    tag: { type: "string" },
    "dry-run": { type: "boolean" },
    packs: { type: "string" },
    check: { type: "boolean" },
  };
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`one dir at most, got ${positionals.join(" ")}`);
  const [dir] = positionals;
  switch (command) {
    case "publish": {
      if (!values.registry)
        throw new UsageError("publish needs --registry <url>: nothing goes to a registry by default");
      if (dir) throw new UsageError("publish takes no dir (--packs <dir> keeps the tarballs)");
      const { registry, tag, packs } = values;
      await publishAll({ repoRoot, registry, tag, packDir: packs, dryRun: values["dry-run"] === true });
      return;
    }
    case "pack": {
      const packs = await packAll(repoRoot, resolve(dir ?? join(repoRoot, "release", "packs")));
      for (const { tarball } of packs) console.log(tarball);
      return;
    }
    case "marketplace": {
      if (!values.check) {
        console.log(`wrote ${writeMarketplace(repoRoot)}`);
        return;
      }
      const drift = marketplaceDrift(repoRoot);
      if (drift) throw new Error(drift);
      console.log(`${MARKETPLACE_FILE} matches the packages`);
      return;
    }
    case "dir": {
      const outDir = resolve(dir ?? join(repoRoot, "release"));
      const { manifestPath, entries } = await releaseDir(repoRoot, outDir);
      console.log(
        `release in ${outDir}: ${entries} hooks and skills (${manifestPath}), the carryover CLI, marketplace/`,
      );
      return;
    }
    default:
      throw new UsageError(command === undefined ? "name a command" : `unknown command ${JSON.stringify(command)}`);
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`release: ${error.message}\n${USAGE}`);
    process.exitCode = 2;
  } else {
    console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
