import { writeFileSync } from "node:fs";
import type { Reporter, SerializedError, TestModule, TestRunEndReason, TestSuite } from "vitest/node";
import { COUNTS_FILE_ENV, type Counts, summaryLine } from "./test-steps.mjs";

const firstLine = (error: SerializedError) => `${error.name ?? "Error"}: ${(error.message ?? "").split("\n")[0]}`;

/**
 * Counts a run so that its closing line never says `0 failed` when the run failed. Besides failed tests,
 * every error vitest keeps outside a test is a failure: a file that did not load or has no test, a
 * beforeAll/afterAll that threw (vitest then skips the suite's tests rather than failing them), a suite
 * that threw while collecting, an unhandled error. A run vitest itself calls failed or interrupted counts
 * one failure when nothing else did.
 */
export function countRun(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError>,
  reason: TestRunEndReason,
): Counts {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  const fail = (line: string) => {
    counts.failed += 1;
    counts.failures.push(line);
  };
  for (const testModule of testModules) {
    const entities: Array<TestModule | TestSuite> = [testModule, ...testModule.children.allSuites()];
    for (const entity of entities) {
      const where =
        entity.type === "module" ? entity.relativeModuleId : `${entity.module.relativeModuleId} > ${entity.fullName}`;
      for (const error of entity.errors()) fail(`${where}: ${firstLine(error)}`);
    }
    for (const test of testModule.children.allTests()) {
      const result = test.result();
      if (result.state === "passed") counts.passed += 1;
      else if (result.state === "failed") fail(`${testModule.relativeModuleId} > ${test.fullName}`);
      else counts.skipped += 1;
    }
  }
  for (const error of unhandledErrors) fail(`unhandled error: ${firstLine(error)}`);
  if (reason !== "passed" && counts.failed === 0) fail(`vitest ended the run as ${reason}`);
  return counts;
}

/**
 * Prints the closing line, `N passed, N failed[, N skipped]`; under `pnpm test` (scripts/test-steps.mjs) it writes
 * the counts to the file that runner names instead, and the runner prints the sum over its steps.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): void {
    const counts = countRun(testModules, unhandledErrors, reason);
    const countsFile = process.env[COUNTS_FILE_ENV];
    if (countsFile) writeFileSync(countsFile, `${JSON.stringify(counts)}\n`);
    else process.stdout.write(`\n${summaryLine(counts)}\n`);
  }
}
