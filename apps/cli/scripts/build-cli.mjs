import { join } from "node:path";
import { buildExecutable } from "@carryover/build";
import { assembleRelease } from "./assemble-release.mjs";

/**
 * The CLI as its package ships it: `<outDir>/carryover.cjs` beside `<outDir>/release/`, the release it installs
 * from (every hook's and skill's executable, built from source, and `manifest.json`).
 *
 * @param {{ repoRoot: string, outDir: string }} options
 */
export async function buildCli({ repoRoot, outDir }) {
  const cli = await buildExecutable({
    entry: "src/bin.ts",
    outfile: join(outDir, "carryover.cjs"),
    cwd: join(repoRoot, "apps/cli"),
  });
  const release = await assembleRelease({ repoRoot, outDir: join(outDir, "release") });
  return { cli, release };
}
