#!/usr/bin/env node
// Core is private and bundled into each package's executable, so a core change ships only through the packages
// whose bundles contain it. This fails unless a pending changeset names every published package whose bundle (per
// its esbuild metafile, dist/*.meta.json) contains a changed file of another package, such as packages/core/src/x.ts.
//   node scripts/check-changesets.mjs [--base <git ref>]     in the repo; base: origin/main when it exists, else main
// Needs built packages (`pnpm build`): the metafiles are build outputs.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const WORKSPACE_DIRS = ["packages", "apps"];

/** Published packages with their bundles' input files, repo-relative. */
export function bundledFiles(repoRoot) {
  const bundles = [];
  for (const group of WORKSPACE_DIRS) {
    const groupDir = join(repoRoot, group);
    if (!existsSync(groupDir)) continue;
    for (const name of readdirSync(groupDir).sort()) {
      const dir = join(groupDir, name);
      const manifestPath = join(dir, "package.json");
      if (!existsSync(manifestPath)) continue;
      const pkg = JSON.parse(readFileSync(manifestPath, "utf8"));
      if (pkg.private === true || pkg.bin === undefined) continue;
      const distDir = join(dir, "dist");
      const metafiles = existsSync(distDir) ? readdirSync(distDir).filter((file) => file.endsWith(".meta.json")) : [];
      if (metafiles.length === 0)
        throw new Error(`${relative(repoRoot, dir)}: no esbuild metafile in dist/; run \`pnpm build\` first`);
      const inputs = new Set();
      for (const metafile of metafiles) {
        const meta = JSON.parse(readFileSync(join(distDir, metafile), "utf8"));
        // The top-level `inputs` also lists files esbuild parsed and then shook out; an output's inputs with bytes
        // are what ships.
        for (const output of Object.values(meta.outputs ?? {})) {
          for (const [input, { bytesInOutput }] of Object.entries(output.inputs ?? {})) {
            if (bytesInOutput > 0) inputs.add(relative(repoRoot, resolve(dir, input)).split(sep).join("/"));
          }
        }
      }
      bundles.push({ name: pkg.name, dir: relative(repoRoot, dir).split(sep).join("/"), inputs });
    }
  }
  return bundles;
}

/** Package names the pending changesets (`.changeset/*.md`) bump. */
export function changesetPackages(repoRoot) {
  const dir = join(repoRoot, ".changeset");
  const names = new Set();
  if (!existsSync(dir)) return names;
  for (const file of readdirSync(dir)) {
    if (!file.endsWith(".md") || file === "README.md") continue;
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(join(dir, file), "utf8"));
    for (const line of front?.[1].split(/\r?\n/) ?? []) {
      const match = /^\s*["']?([^"':\s]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
      if (match) names.add(match[1]);
    }
  }
  return names;
}

/** Files changed since the merge base with `base`: commits, the working tree and untracked files. */
export function changedFiles(repoRoot, base) {
  const git = (...args) => execFileSync("git", args, { cwd: repoRoot, encoding: "utf8" });
  const mergeBase = git("merge-base", base, "HEAD").trim();
  const tracked = git("diff", "--name-only", mergeBase).split("\n");
  const untracked = git("ls-files", "--others", "--exclude-standard").split("\n");
  return [...new Set([...tracked, ...untracked].filter(Boolean))].sort();
}

/** For each changed file bundled by a package it does not belong to: the packages no changeset names. */
export function missingChangesets({ changed, bundles, named }) {
  const missing = [];
  for (const file of changed) {
    const packages = bundles
      .filter((bundle) => bundle.inputs.has(file) && !file.startsWith(`${bundle.dir}/`) && !named.has(bundle.name))
      .map((bundle) => bundle.name);
    if (packages.length > 0) missing.push({ file, packages });
  }
  return missing;
}

function defaultBase(repoRoot) {
  try {
    execFileSync("git", ["rev-parse", "--verify", "--quiet", "origin/main"], { cwd: repoRoot, stdio: "ignore" });
    return "origin/main";
  } catch {
    return "main";
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repoRoot = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
  const args = process.argv.slice(2);
  const baseAt = args.indexOf("--base");
  try {
    if (args.length !== 0 && !(args.length === 2 && baseAt === 0))
      throw new Error("usage: node scripts/check-changesets.mjs [--base <git ref>]");
    const base = baseAt === 0 ? args[1] : defaultBase(repoRoot);
    const missing = missingChangesets({
      changed: changedFiles(repoRoot, base),
      bundles: bundledFiles(repoRoot),
      named: changesetPackages(repoRoot),
    });
    for (const { file, packages } of missing) {
      const naming = packages.length === 1 ? "it" : "them";
      console.error(
        `${file} is bundled into ${packages.join(", ")}: add a changeset naming ${naming} (pnpm changeset)`,
      );
    }
    if (missing.length > 0) process.exitCode = 1;
    else console.log(`changesets: every package bundling a changed file since ${base} has one`);
  } catch (error) {
    console.error(`check-changesets: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  }
}
