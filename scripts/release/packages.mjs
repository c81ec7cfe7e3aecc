// The packages a release publishes, in the order it publishes them.
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { carryoverPackages, readPackage as readPackageJson } from "../../apps/cli/scripts/assemble-release.mjs";

/**
 * @typedef {{ name: string, version: string, private?: boolean, description?: string, bin?: Record<string, string>,
 *   files?: string[], scripts?: Record<string, string>, dependencies?: Record<string, string>,
 *   carryover?: { hook?: string, skill?: string, statusLine?: boolean, files?: Record<string, string>,
 *     registrations?: Array<{ event: string, matcher?: string, if?: string, timeout?: number }> } }} PackageJson
 * @typedef {{ dir: string, pkg: PackageJson, kind: "hook" | "skill" | "cli" }} Publishable
 */

/** @returns {PackageJson} */
export function readPackage(dir) {
  return readPackageJson(dir);
}

/**
 * Every package that is not private: the hooks and the skill first, by name, then the CLI. The CLI comes last
 * because it is what users run, and the marketplace names the others: nothing points at a version before
 * that version is on the registry.
 *
 * @returns {Publishable[]}
 */
export function publishablePackages(repoRoot) {
  const carryover = carryoverPackages(repoRoot).map((dir) => ({ dir, pkg: readPackage(dir) }));
  const hooks = carryover
    .filter(({ pkg }) => pkg.private !== true)
    .map(({ dir, pkg }) => ({ dir, pkg, kind: /** @type {const} */ (pkg.carryover?.hook ? "hook" : "skill") }))
    .sort((a, b) => a.pkg.name.localeCompare(b.pkg.name));
  const appsDir = join(repoRoot, "apps");
  const apps = readdirSync(appsDir)
    .map((name) => join(appsDir, name))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, pkg: readPackage(dir), kind: /** @type {const} */ ("cli") }))
    .filter(({ pkg }) => pkg.private !== true);
  const all = [...hooks, ...apps];
  for (const { dir, pkg } of all) {
    const where = relative(repoRoot, join(dir, "package.json"));
    // Everything a hook needs is bundled into its executable; a dependency would be installed beside it for nothing.
    if (Object.keys(pkg.dependencies ?? {}).length > 0)
      throw new Error(`${where}: a published package has no "dependencies"`);
    if (!Array.isArray(pkg.files)) throw new Error(`${where}: a published package lists its "files"`);
  }
  return all;
}
