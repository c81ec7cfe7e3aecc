// A release dir for machines without a registry: every hook's and skill's executable built from source,
// manifest.json, the carryover CLI beside them, and a directory plugin marketplace generated from them.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { assembleRelease } from "../../apps/cli/scripts/assemble-release.mjs";
import { buildExecutable } from "../../packages/build/src/index.mjs";

export async function releaseDir(repoRoot, outDir) {
  const { manifestPath, entries } = await assembleRelease({ repoRoot, outDir });
  const cwd = join(repoRoot, "apps/cli");
  const cli = await buildExecutable({ entry: "src/bin.ts", outfile: join(outDir, "carryover.cjs"), cwd });
  rmSync(`${cli.outfile}.meta.json`);
  execFileSync(process.execPath, [cli.outfile, "marketplace", join(outDir, "marketplace")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { manifestPath, entries };
}
