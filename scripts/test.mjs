// `pnpm test`: build, typecheck, lint, then vitest: the whole suite on one supported Node, the e2e tests of the built
// executables on the others, each run by that Node itself (tests spawn `node` from PATH and `process.execPath`).
// The last line sums every step (scripts/test-steps.mjs); a Node that is missing is a failure, never a skip.
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { FULL_SUITE_NODE, NODE_VERSIONS, nodeBinDir } from "./nodes.mjs";
import { main } from "./test-steps.mjs";

const ROOT = join(import.meta.dirname, "..");
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");
/** @param {string} name */
const bin = (name) => join(ROOT, "node_modules", ".bin", name);
/** @param {string} project */
const typecheck = (project) => ({ name: `typecheck ${project}`, command: [bin("tsc"), "--noEmit", "-p", project] });

/**
 * @param {string} version
 * @param {string} what
 * @param {string[]} args
 * @returns {import("./test-steps.mjs").Step}
 */
function vitestOn(version, what, args) {
  const binDir = nodeBinDir(version);
  const node = join(binDir, "node");
  return {
    name: `node ${version}, ${what}`,
    command: [node, VITEST, "run", ...args],
    countsTests: true,
    env: { PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}` },
    ...(existsSync(node)
      ? {}
      : { missing: `Node ${version} is not in ${binDir} (node scripts/nodes.mjs fetch installs it)` }),
  };
}

main(
  [
    { name: "build", command: [bin("turbo"), "run", "build", "--output-logs=errors-only"], required: true },
    { name: "typecheck packages", command: [bin("turbo"), "run", "typecheck", "--output-logs=errors-only"] },
    typecheck("bench"),
    typecheck("scripts"),
    typecheck("test/reliability"),
    // `pnpm lint`, a step each: Biome's lint and format check, knip, the line check.
    { name: "biome check", command: [bin("biome"), "check", "--error-on-warnings"] },
    { name: "knip", command: [bin("knip"), "--no-progress"] },
    { name: "lines of at most 120 characters", command: [process.execPath, join(ROOT, "scripts", "line-length.mjs")] },
    vitestOn(FULL_SUITE_NODE, "the whole suite", []),
    ...NODE_VERSIONS.filter((version) => version !== FULL_SUITE_NODE).map((version) =>
      vitestOn(version, "the e2e tests of the built executables", ["--project", "e2e"]),
    ),
  ],
  { cwd: ROOT },
);
