#!/usr/bin/env node
// A release dir: every hook's and skill's executable built from source, manifest.json (name, version, sha256,
// events, matchers, timeouts), the carryover CLI beside them, and a plugin marketplace generated from them.
//   node scripts/release.mjs [<out-dir>]      default: ./release
// Then: `node <out-dir>/carryover.cjs install --recommended` (it installs from its own dir), or
// `carryover install --from <out-dir>`, or `claude plugin marketplace add <out-dir>/marketplace`.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { assembleRelease } from "../apps/cli/scripts/assemble-release.mjs";
import { buildExecutable } from "../packages/build/src/index.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
if (args.length > 1 || args.some((arg) => arg.startsWith("-"))) {
  console.error("usage: node scripts/release.mjs [<out-dir>]");
  process.exit(2);
}
const outDir = resolve(args[0] ?? join(repoRoot, "release"));

try {
  const { manifestPath, entries } = await assembleRelease({ repoRoot, outDir });
  const cli = await buildExecutable({ entry: "src/bin.ts", outfile: join(outDir, "carryover.cjs"), cwd: join(repoRoot, "apps/cli") });
  rmSync(`${cli.outfile}.meta.json`);
  execFileSync(process.execPath, [cli.outfile, "marketplace", join(outDir, "marketplace")], { stdio: ["ignore", "ignore", "inherit"] });
  console.log(`release in ${outDir}: ${entries} hooks and skills (${manifestPath}), the carryover CLI, marketplace/`);
} catch (error) {
  console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
