import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { build } from "esbuild";

/**
 * The esbuild options of every carryover executable; the bench builds variants from them.
 *
 * @param {string} entry
 * @param {string} outfile
 * @param {string} cwd
 * @returns {import("esbuild").BuildOptions}
 */
export function executableOptions(entry, outfile, cwd) {
  return {
    absWorkingDir: cwd,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    legalComments: "none",
    banner: { js: "#!/usr/bin/env node" },
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
  };
}

/**
 * Bundles one entry into one executable CommonJS file: shebang, no runtime dependencies, mode 755,
 * and the esbuild metafile beside it (`<outfile>.meta.json`) so a release can tell which core files
 * each bundle contains. CommonJS because it starts ~5 ms faster than ESM on Node 20 here.
 *
 * @param {{ entry: string, outfile: string, cwd?: string }} options
 * @returns {Promise<{ outfile: string, bytes: number }>}
 */
export async function buildExecutable({ entry, outfile, cwd = process.cwd() }) {
  const outPath = resolve(cwd, outfile);
  mkdirSync(dirname(outPath), { recursive: true });
  const result = await build({ ...executableOptions(entry, outPath, cwd), metafile: true });
  chmodSync(outPath, 0o755);
  writeFileSync(`${outPath}.meta.json`, JSON.stringify(result.metafile, null, 1));
  const bytes = result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].bytes;
  return { outfile: outPath, bytes };
}
