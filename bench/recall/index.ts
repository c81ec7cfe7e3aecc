// The recall benchmark's entry: bench/sections/recall.mjs bundles it (Node 20 cannot import this TypeScript).
import { loadavg } from "node:os";
import { type RecallFailure, type RecallReport, recallReport } from "./report.ts";
import { type RunOptions, runScenario, type ScenarioRun } from "./run.ts";
import { SCENARIOS } from "./scenarios.ts";

export type { RecallReport } from "./report.ts";

/** Every scenario with carryover and without, one after another (each is one claude process and its hooks). */
export async function runRecall(options: RunOptions & { only?: readonly string[] }): Promise<RecallReport> {
  const started = Date.now();
  const before = loadavg();
  const runs: ScenarioRun[] = [];
  const failures: RecallFailure[] = [];
  const log = options.log ?? (() => {});
  for (const scenario of SCENARIOS.filter((s) => !options.only || options.only.includes(s.id))) {
    for (const withCarryover of [true, false]) {
      const label = `${scenario.id} ${withCarryover ? "with" : "without"} carryover`;
      try {
        const run = await runScenario(scenario, withCarryover, options);
        log(`recall: ${label} in ${(run.durationMs / 1000).toFixed(1)} s`);
        runs.push(run);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log(`recall: ${label} failed: ${message}`);
        failures.push({ scenario: scenario.id, withCarryover, error: message.split("\n")[0]! });
      }
    }
  }
  const load = (values: number[]) => values.map((value) => value.toFixed(1)).join(" / ");
  return recallReport(runs, failures, {
    startedAt: new Date(started),
    durationMs: Date.now() - started,
    load: `${load(before)} at the start, ${load(loadavg())} at the end`,
  });
}
