// Build, pack and publish every package, in order, to the registry given.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { marketplaceDrift } from "./marketplace.mjs";
import { publishablePackages } from "./packages.mjs";
import { stagePackage } from "./stage.mjs";

/**
 * Every publishable package staged and packed with npm into `packDir`, in publish order.
 *
 * @param {string} repoRoot
 * @param {string} packDir
 * @returns {Promise<Array<{ name: string, version: string, tarball: string }>>}
 */
export async function packAll(repoRoot, packDir) {
  mkdirSync(packDir, { recursive: true });
  const staging = mkdtempSync(join(tmpdir(), "carryover-stage-"));
  try {
    const packs = [];
    for (const publishable of publishablePackages(repoRoot)) {
      const stageDir = join(staging, publishable.pkg.name.replace(/^@/, "").replace("/", "-"));
      await stagePackage(repoRoot, publishable, stageDir);
      const output = execFileSync(
        "npm",
        ["pack", stageDir, "--json", "--ignore-scripts", "--pack-destination", packDir],
        {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      const [packed] = JSON.parse(output);
      packs.push({ name: packed.name, version: packed.version, tarball: join(resolve(packDir), packed.filename) });
    }
    return packs;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * What stops a release: changesets not yet turned into versions (the code they describe would go out under the
 * old version, or not at all), and a marketplace.json that does not match the packages.
 */
export function releaseBlockers(repoRoot) {
  const blockers = [];
  const changesetDir = join(repoRoot, ".changeset");
  const pending = existsSync(changesetDir)
    ? readdirSync(changesetDir).filter((file) => file.endsWith(".md") && file !== "README.md")
    : [];
  if (pending.length > 0) {
    const names = pending.join(", ");
    blockers.push(`${pending.length} changesets are not versioned yet (${names}): run pnpm version-packages, commit`);
  }
  const drift = marketplaceDrift(repoRoot);
  if (drift) blockers.push(drift);
  return blockers;
}

/**
 * Publishes each pack unless the registry already has that version (so a release that stopped half way is
 * finished by running it again). `npm` does the talking, with the user's own npm config and credentials.
 *
 * @param {{ repoRoot: string, registry: string, tag?: string, dryRun?: boolean, packDir?: string,
 *   log?: (line: string) => void }} options
 */
export async function publishAll({ repoRoot, registry, tag = "latest", dryRun = false, packDir, log = console.log }) {
  const blockers = releaseBlockers(repoRoot);
  if (blockers.length > 0) throw new Error(`not released:\n  ${blockers.join("\n  ")}`);
  const keep = packDir !== undefined;
  const dir = keep ? resolve(packDir) : mkdtempSync(join(tmpdir(), "carryover-packs-"));
  try {
    log(`building and packing ${publishablePackages(repoRoot).length} packages from source`);
    const packs = await packAll(repoRoot, dir);
    const counts = { published: 0, skipped: 0 };
    for (const { name, version, tarball } of packs) {
      if (isPublished(name, version, registry)) {
        counts.skipped += 1;
        log(`  ${name}@${version}: already on the registry, skipped`);
        continue;
      }
      const args = ["publish", tarball, "--registry", registry, "--access", "public", "--tag", tag, "--ignore-scripts"];
      const result = spawnSync("npm", [...args, ...(dryRun ? ["--dry-run"] : [])], { encoding: "utf8" });
      if (result.status !== 0) throw new Error(publishFailure(name, version, registry, result.stderr));
      counts.published += 1;
      log(`  ${name}@${version}: ${dryRun ? "would be published (--dry-run)" : "published"}`);
    }
    const verb = dryRun ? "would publish" : "published";
    log(`${verb} ${counts.published}, skipped ${counts.skipped} (already there), to ${registry}`);
    return counts;
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What to do about a failed `npm publish`, then npm's last lines. Each package is published under its own name,
 * so npm's refusals that mean "not yours" are said in carryover's terms: its packages' scope is an npm org that
 * has to exist, and be the publisher's, before the first release.
 */
export function publishFailure(name, version, registry, stderr) {
  const npm = lastLines(stderr);
  const scope = /^(@[^/]+)\//.exec(name)?.[1];
  let hint = "";
  if (/\bENEEDAUTH\b/.test(stderr)) hint = `log in first: npm login --registry ${registry}`;
  else if (scope && /\bE40[34]\b/.test(stderr))
    hint = `the ${scope} scope is not yours on ${registry}: create the npm org ${scope.slice(1)} (or join it) first`;
  return `npm publish ${name}@${version} failed${hint ? `: ${hint}` : ""}: ${npm}`;
}

function isPublished(name, version, registry) {
  const result = spawnSync("npm", ["view", `${name}@${version}`, "version", "--json", "--registry", registry], {
    encoding: "utf8",
  });
  if (result.status === 0) return result.stdout.trim() !== "";
  if (/\bE404\b/.test(result.stdout + result.stderr)) return false;
  throw new Error(`npm view ${name}@${version} on ${registry} failed: ${lastLines(result.stderr)}`);
}

function lastLines(text) {
  return text.trim().split("\n").slice(-3).join(" / ");
}
