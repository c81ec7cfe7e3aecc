// `pnpm test`'s vitest part: the whole suite on one supported Node, the e2e tests of the built executables on
// the others, each run by that Node itself (tests spawn `node` from PATH and `process.execPath`). The last line
// counts every run: `N passed, N failed`. A Node that is missing is a failure, never a skip.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FULL_SUITE_NODE, NODE_VERSIONS, nodeBinDir } from "./nodes.mjs";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");
const SUMMARY = /^(?:\S+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/;

/** Runs vitest with `args` under the Node in `binDir`, its output passed through; resolves to its counts. */
function runVitest(binDir, args) {
  return new Promise((resolve) => {
    const env = { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}` };
    const child = spawn(join(binDir, "node"), [VITEST, "run", ...args], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let tail = "";
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk).slice(-4096);
    });
    child.on("error", (error) => resolve({ code: 1, counts: null, error: error.message }));
    child.on("close", (code, signal) => {
      const line = tail.trimEnd().split("\n").at(-1) ?? "";
      const match = SUMMARY.exec(line);
      const counts = match
        ? { passed: Number(match[1]), failed: Number(match[2]), skipped: Number(match[3] ?? 0) }
        : null;
      resolve({ code: code ?? 1, counts, error: signal ? `killed by ${signal}` : null });
    });
  });
}

const runs = [
  { version: FULL_SUITE_NODE, what: "the whole suite", args: [] },
  ...NODE_VERSIONS.filter((version) => version !== FULL_SUITE_NODE).map((version) => ({
    version,
    what: "the e2e tests of the built executables",
    args: ["--project", "e2e", "--exclude", "**/*.claude.e2e.test.ts"],
  })),
];
const total = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
for (const { version, what, args } of runs) {
  const binDir = nodeBinDir(version);
  const label = `node ${version}, ${what}`;
  if (!existsSync(join(binDir, "node"))) {
    total.failed += 1;
    lines.push(`${label}: not run: Node ${version} is not in ${binDir} (node scripts/nodes.mjs fetch installs it)`);
    continue;
  }
  process.stdout.write(`\n=== ${label} ===\n`);
  const { code, counts, error } = await runVitest(binDir, args);
  if (!counts) {
    total.failed += 1;
    lines.push(`${label}: exited ${code}${error ? ` (${error})` : ""} without a summary line: counted as 1 failed`);
    continue;
  }
  total.passed += counts.passed;
  total.skipped += counts.skipped;
  // A run that failed must say so even when no test did (a suite that could not load, an unhandled error).
  const failed = code !== 0 && counts.failed === 0 ? 1 : counts.failed;
  total.failed += failed;
  const note = failed === counts.failed ? "" : ` (exited ${code}: counted as 1 failed)`;
  lines.push(`${label}: ${counts.passed} passed, ${counts.failed} failed${note}`);
}
const skipped = total.skipped ? `, ${total.skipped} skipped` : "";
process.stdout.write(`\n${lines.join("\n")}\n\n${total.passed} passed, ${total.failed} failed${skipped}\n`);
process.exit(total.failed === 0 ? 0 : 1);
