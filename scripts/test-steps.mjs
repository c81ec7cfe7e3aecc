import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Set for a step that counts tests: its vitest summary reporter writes its counts to this file. */
export const COUNTS_FILE_ENV = "CARRYOVER_TEST_COUNTS_FILE";

/** @typedef {{ passed: number, failed: number, skipped: number, failures: string[] }} Counts */

/**
 * @typedef {object} Step
 * @property {string} name
 * @property {string[]} command  an executable and its arguments, run without a shell
 * @property {boolean} [countsTests]  a vitest run whose summary reporter writes its counts
 * @property {boolean} [required]  the steps after it are pointless when it fails (nothing runs without the build)
 * @property {Record<string, string>} [env]  variables set for this step alone
 * @property {string} [missing]  why the step cannot run (a Node version not installed): it counts as one failure
 */

/** @param {Pick<Counts, "passed" | "failed" | "skipped">} counts */
export const summaryLine = ({ passed, failed, skipped }) =>
  `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;

const MAX_FAILURES_LISTED = 20;

/** @param {import("node:child_process").SpawnSyncReturns<Buffer>} result */
const howItEnded = (result) =>
  result.error
    ? `could not start: ${result.error.message}`
    : result.signal
      ? `killed by ${result.signal}`
      : `exit ${result.status}`;

/** @param {string} file @returns {Counts | null} */
function readCounts(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/**
 * Runs the steps in order, their output going straight to the terminal, and returns what to print after them.
 * A step that counts tests adds its counts; any other step that fails counts as one failed. A step counts as
 * failed whenever it exits non-zero, also when its tests all passed (vitest exits 1 on errors it counts
 * nowhere, and a crash writes no counts at all).
 * @param {Step[]} steps
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} options
 * @returns {{ total: Counts, report: string[] }}
 */
export function runSteps(steps, { cwd, env }) {
  const total = { passed: 0, failed: 0, skipped: 0, failures: [] };
  const report = [];
  // A step that counts nothing must not see the file of an outer run (this runner's own tests run it).
  const { [COUNTS_FILE_ENV]: _outer, ...baseEnv } = env;
  const countsDir = mkdtempSync(join(tmpdir(), "carryover-test-counts-"));
  try {
    for (const [index, step] of steps.entries()) {
      if (step.missing) {
        total.failed += 1;
        total.failures.push(`${step.name}: not run: ${step.missing}`);
        report.push(`${step.name}: not run: ${step.missing}`);
        continue;
      }
      const countsFile = join(countsDir, `${index}.json`);
      const stepEnv = { ...baseEnv, ...step.env, ...(step.countsTests ? { [COUNTS_FILE_ENV]: countsFile } : {}) };
      const result = spawnSync(step.command[0], step.command.slice(1), { cwd, env: stepEnv, stdio: "inherit" });
      const ok = !result.error && result.status === 0;
      const counts = step.countsTests ? readCounts(countsFile) : null;
      /** @type {string[]} */
      const failures = [...(counts?.failures ?? [])];
      let failed = counts?.failed ?? 0;
      if (!ok && failed === 0) {
        failed = 1;
        failures.push(
          step.countsTests && counts
            ? `${step.name}: ${howItEnded(result)} with no failure counted`
            : `${step.name}: ${howItEnded(result)}`,
        );
      }
      total.passed += counts?.passed ?? 0;
      total.skipped += counts?.skipped ?? 0;
      total.failed += failed;
      total.failures.push(...failures);
      const outcome = counts ? summaryLine({ ...counts, failed }) : ok ? "ok" : `failed (${howItEnded(result)})`;
      report.push(`${step.name}: ${outcome}`);
      report.push(...failures.slice(0, MAX_FAILURES_LISTED).map((failure) => `  ✗ ${failure}`));
      if (failures.length > MAX_FAILURES_LISTED) report.push(`  … and ${failures.length - MAX_FAILURES_LISTED} more`);
      if (result.signal === "SIGINT") {
        report.push("interrupted: the steps after it did not run");
        break;
      }
      if (!ok && step.required) {
        const skippedSteps = steps.slice(index + 1).map((later) => later.name);
        if (skippedSteps.length) report.push(`not run, since ${step.name} failed: ${skippedSteps.join(", ")}`);
        break;
      }
    }
  } finally {
    rmSync(countsDir, { recursive: true, force: true });
  }
  return { total, report };
}

/**
 * Runs the steps and prints the closing line CI reads, `N passed, N failed[, N skipped]`: the sum over every
 * step, never `0 failed` when a step failed. Sets the exit code to 1 when anything failed.
 * @param {Step[]} steps
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv }} options
 */
export function main(steps, { cwd, env = process.env }) {
  // Ctrl-C reaches the step too; this process outlives it to print what ran.
  process.on("SIGINT", () => {});
  let total;
  let report;
  try {
    ({ total, report } = runSteps(steps, { cwd, env }));
  } catch (error) {
    total = { passed: 0, failed: 1, skipped: 0, failures: [] };
    report = [`the test runner failed: ${error instanceof Error ? error.message : String(error)}`];
  }
  process.stdout.write(`\n${report.join("\n")}\n${summaryLine(total)}\n`);
  process.exitCode = total.failed > 0 ? 1 : 0;
}
