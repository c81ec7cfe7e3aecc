// A package as it is published, laid out in a fresh dir: its executables built from source there (never copied
// from its dist/, which turbo may be rewriting), its other files copied, a package.json without what only the
// monorepo uses.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { buildPairs } from "../../apps/cli/scripts/assemble-release.mjs";
import { buildCli } from "../../apps/cli/scripts/build-cli.mjs";
import { buildExecutable } from "../../packages/build/src/index.mjs";

/** Built files live under dist/; everything else a package lists in `files` is copied from its dir. */
const BUILT = /^dist(?:\/|$)/;

/**
 * @param {string} repoRoot
 * @param {import("./packages.mjs").Publishable} publishable
 * @param {string} outDir an empty or missing dir
 */
export async function stagePackage(repoRoot, { dir, pkg, kind }, outDir) {
  const where = relative(repoRoot, join(dir, "package.json"));
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  if (kind === "cli") await buildCli({ repoRoot, outDir: join(outDir, "dist") });
  else {
    for (const { entry, outfile } of buildPairs(pkg, where)) {
      await buildExecutable({ entry, outfile: join(outDir, outfile), cwd: dir });
    }
  }
  removeMetafiles(join(outDir, "dist"));
  const files = /** @type {string[]} */ (pkg.files).map((file) => file.replace(/^\.\//, "").replace(/\/$/, ""));
  for (const file of files) {
    if (BUILT.test(file)) continue;
    if (!existsSync(join(dir, file))) throw new Error(`${where}: "files" lists ${file}, which is not there`);
    mkdirSync(dirname(join(outDir, file)), { recursive: true });
    cpSync(join(dir, file), join(outDir, file), { recursive: true });
  }
  for (const file of files) {
    if (!existsSync(join(outDir, file)))
      throw new Error(`${where}: "files" lists ${file}, which the build does not make`);
  }
  cpSync(join(repoRoot, "LICENSE"), join(outDir, "LICENSE"));
  writeFileSync(join(outDir, "package.json"), `${JSON.stringify(publishedManifest(pkg), null, 2)}\n`);
}

/** The package.json users get: no scripts (they build the monorepo) and no devDependencies (on private packages). */
function publishedManifest(pkg) {
  const { scripts: _scripts, devDependencies: _devDependencies, ...published } = pkg;
  return published;
}

function removeMetafiles(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) removeMetafiles(path);
    else if (entry.endsWith(".meta.json")) rmSync(path);
  }
}
