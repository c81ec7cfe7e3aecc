import { existsSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { FULL_SUITE_NODE, nodeBinDir } from "../../scripts/nodes.mjs";

/**
 * What a compaction keeps (issue 21): scripted sessions through the real Claude Code CLI against the mock API,
 * with carryover installed by the built CLI and without it; bench/recall/ holds the scenarios and the classifier.
 */
export async function recallSection({ root, benchDir, log }) {
  const cli = join(root, "apps/cli/dist/carryover.cjs");
  if (!existsSync(cli)) throw new Error(`the CLI is not built (${cli}): pnpm build`);
  // The hooks run on the Node the installer links: a supported one, as on a user's machine.
  const binDir = nodeBinDir(FULL_SUITE_NODE);
  if (!existsSync(join(binDir, "node")))
    throw new Error(`Node ${FULL_SUITE_NODE} is not in ${binDir}: node scripts/nodes.mjs fetch installs it`);
  const outfile = join(benchDir, ".cache/recall.mjs");
  await build({
    entryPoints: [join(benchDir, "recall/index.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    logLevel: "warning",
  });
  const { runRecall } = await import(`${outfile}?${Date.now()}`);
  return runRecall({ cli, nodeBinDir: binDir, log });
}
