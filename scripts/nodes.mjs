// The Node versions carryover supports and tests on, and where the tests find them. `node scripts/nodes.mjs
// fetch` installs the missing ones from the npm registry (the `node-<platform>-<arch>` packages hold the official
// binaries); .ci/run calls it, `pnpm test` (scripts/test.mjs) only looks.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** One release per supported line; `engines` in every package.json says `>=22`. */
export const NODE_VERSIONS = ["22.23.5", "24.22.3", "26.12.1"];
/** The version the whole suite runs on; the others run the e2e tests of the built executables. */
export const FULL_SUITE_NODE = "26.12.1";

/** `$CARRYOVER_NODE_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/carryover/node`. */
export function nodeCacheDir(env = process.env) {
  if (env.CARRYOVER_NODE_CACHE) return env.CARRYOVER_NODE_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "carryover", "node");
}

/** The bin dir of `version` in the cache (it holds `node`), whether or not it is there. */
export function nodeBinDir(version, env = process.env) {
  return join(nodeCacheDir(env), `node-v${version}-${process.platform}-${process.arch}`, "bin");
}

/** Installs `version` into the cache unless it is there: `npm pack`, extract, keep `bin/node`. */
function fetchNode(version) {
  const binDir = nodeBinDir(version);
  if (existsSync(join(binDir, "node"))) return false;
  const pkg = `node-${process.platform}-${process.arch}@${version}`;
  mkdirSync(nodeCacheDir(), { recursive: true });
  const work = mkdtempSync(join(nodeCacheDir(), ".fetch-"));
  try {
    const tarball = execFileSync("npm", ["pack", pkg, "--silent", "--pack-destination", work], { encoding: "utf8" })
      .trim()
      .split("\n")
      .at(-1);
    execFileSync("tar", ["-xzf", join(work, tarball), "-C", work]);
    const node = join(work, "package", "bin", "node");
    if (!existsSync(node)) throw new Error(`${pkg} holds no bin/node`);
    chmodSync(node, 0o755);
    const reported = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
    if (reported !== `v${version}`) throw new Error(`${pkg}'s bin/node says ${reported}`);
    mkdirSync(join(binDir, ".."), { recursive: true });
    renameSync(join(work, "package", "bin"), binDir);
    return true;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== "fetch") {
    process.stderr.write(
      `usage: node scripts/nodes.mjs fetch   (installs Node ${NODE_VERSIONS.join(", ")} for the tests)\n`,
    );
    process.exit(2);
  }
  try {
    for (const version of NODE_VERSIONS) {
      if (fetchNode(version)) process.stdout.write(`node ${version}: installed in ${nodeBinDir(version)}\n`);
    }
  } catch (error) {
    process.stderr.write(`scripts/nodes.mjs: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
