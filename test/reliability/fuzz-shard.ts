import { mkdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { recordFigures } from "./figures.ts";
import { discoverHooks } from "./hooks.ts";
import { outputProblem, payloadEvent } from "./outcome.ts";
import { countKinds, describeCase, fuzzCases, stdinText } from "./payloads.ts";
import { createSandbox, type Sandbox } from "./sandbox.ts";
import { resetSandbox, seedState } from "./seed.ts";
import { runInProcess, type Shipped } from "./shipped.ts";
import { changesOutsideCarryover, snapshotTree, type TreeChange } from "./tree.ts";

// .ci/run sets 10,000; a local run takes a tenth of the time.
const RUNS_PER_HOOK = runsPerHook(process.env.CARRYOVER_FUZZ_RUNS);
// Fixed so a failure reproduces; CARRYOVER_FUZZ_SEED explores other sequences.
const SEED = Number(process.env.CARRYOVER_FUZZ_SEED ?? 20_261_129);
// Each run must take under 1 s of CPU; one still running after 5 s (wall) hangs. Wall time alone would
// measure the machine's load: other processes in a full test run stretched a 0.2 s run to 0.7 s.
const MAX_RUN_CPU_MS = 1_000;
const DEADLINE_MS = 5_000;
// Markers get consumed: re-seeding keeps the hooks' full paths in play.
const RESEED_EVERY = 50;
// The changes log and MEMORY.md grow by a section per new compaction, as they should; starting each
// segment from the seeded sandbox keeps 10,000 compactions in a row from timing the file rewrite instead.
const SEGMENT_RUNS = 500;

function runsPerHook(text: string | undefined): number {
  if (text === undefined || text === "") return 1_000;
  const runs = Number(text);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`CARRYOVER_FUZZ_RUNS must be a positive integer, not ${JSON.stringify(text)}`);
  return runs;
}

/** Set by the shard file's mock of core's main()/statusLineMain(), which bin.ts calls at import. */
export interface Captured {
  shipped: unknown;
}

async function loadShipped(binSource: string, captured: Captured): Promise<Shipped> {
  captured.shipped = undefined;
  await import(binSource);
  if (!captured.shipped) throw new Error(`${binSource} did not hand a hook to core's main() or statusLineMain()`);
  return captured.shipped as Shipped;
}

/**
 * Fuzzes the hooks whose discovery index is `shard` modulo `shards`, each in-process through core's
 * runtime exactly as its bin.ts ships it, with RUNS_PER_HOOK generated payloads. Shards are separate
 * test files so the two cores share the work.
 */
export function fuzzShard(shard: number, shards: number, captured: Captured): void {
  const hooks = discoverHooks()
    .map((hook, index) => ({ hook, index }))
    .filter(({ index }) => index % shards === shard);
  let sandbox: Sandbox;
  const originalCwd = process.cwd();

  beforeAll(() => {
    sandbox = createSandbox(`fuzz-${shard}`);
    // A relative path written by mistake lands here, where the snapshots see it.
    const cwd = join(sandbox.root, "cwd");
    mkdirSync(cwd);
    process.chdir(cwd);
  });

  afterAll(() => {
    process.chdir(originalCwd);
    sandbox.cleanup();
  });

  test.each(hooks.map(({ hook, index }) => [hook.name, hook, index] as const))(
    `%s: ${RUNS_PER_HOOK.toLocaleString("en-US")} payloads, none rejected, none hung or over 1 s, ` +
      "no output over 10,000 chars or invalid for its event, no file outside carryover's places",
    async (_name, hook, index) => {
      const shipped = await loadShipped(hook.binSource, captured);
      const seed = SEED + index;
      const cases = fc.sample(fuzzCases(hook.events, sandbox, { closedStdin: false }), {
        seed,
        numRuns: RUNS_PER_HOOK,
      });
      const failures: string[] = [];
      const outside: TreeChange[] = [];
      const counts = {
        rejected: 0,
        hung: 0,
        overOneSecond: 0,
        oversized: 0,
        invalidOutput: 0,
        withOutput: 0,
        maxOutputChars: 0,
        longestRunCpuMs: 0,
        longestRunMs: 0,
      };
      for (let start = 0; start < cases.length; start += SEGMENT_RUNS) {
        resetSandbox(sandbox, Date.now());
        const before = snapshotTree(sandbox.root);
        for (let position = start; position < Math.min(start + SEGMENT_RUNS, cases.length); position++) {
          if (position > start && position % RESEED_EVERY === 0) seedState(sandbox, Date.now());
          const fuzzCase = cases[position]!;
          const text = stdinText(fuzzCase);
          const run = await runInProcess(shipped, sandbox.env, text, DEADLINE_MS);
          let problem: string | null = null;
          if (run.error !== undefined) {
            counts.rejected += 1;
            problem = `rejected: ${String(run.error)}`;
          } else if (run.hung) {
            counts.hung += 1;
            problem = `still running after ${Math.round(run.durationMs)} ms`;
          } else if (run.cpuMs > MAX_RUN_CPU_MS) {
            counts.overOneSecond += 1;
            problem = `took ${Math.round(run.cpuMs)} ms of CPU`;
          } else {
            const event = run.output.startsWith("{") ? payloadEvent(text) : undefined;
            problem = outputProblem(run.output, event, shipped.kind === "statusline");
            if (problem?.startsWith("output of")) counts.oversized += 1;
            else if (problem) counts.invalidOutput += 1;
          }
          if (run.output) counts.withOutput += 1;
          counts.maxOutputChars = Math.max(counts.maxOutputChars, run.output.length);
          counts.longestRunCpuMs = Math.max(counts.longestRunCpuMs, Math.round(run.cpuMs));
          counts.longestRunMs = Math.max(counts.longestRunMs, Math.round(run.durationMs));
          if (problem) failures.push(`#${position} (seed ${seed}) ${describeCase(fuzzCase)} → ${problem}`);
        }
        outside.push(...changesOutsideCarryover(before, snapshotTree(sandbox.root), sandbox));
      }
      recordFigures(`fuzz-in-process.${hook.name}`, {
        runs: cases.length,
        seed,
        kinds: countKinds(cases),
        ...counts,
        filesOutside: outside.length,
      });
      expect(failures.slice(0, 20)).toEqual([]);
      expect(outside).toEqual([]);
    },
    120_000,
  );
}
