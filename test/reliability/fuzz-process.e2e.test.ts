// Every built hook executable (found from packages/*/package.json) spawned with 40 generated stdins each,
// as Claude Code spawns it: what only a process shows (exit codes, signals, closed stdin, start-up, stderr).
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { recordFigures } from "./figures.ts";
import { discoverHooks } from "./hooks.ts";
import { outputProblem, payloadEvent } from "./outcome.ts";
import { countKinds, describeCase, processCases, stdinBytes } from "./payloads.ts";
import { createSandbox, type Sandbox } from "./sandbox.ts";
import { seedFiles, seedState } from "./seed.ts";
import { mapLimit, runFile } from "./spawn.ts";
import { changesOutsideCarryover, snapshotTree } from "./tree.ts";

const RUNS_PER_HOOK = 40;
const SEED = Number(process.env.CARRYOVER_FUZZ_SEED ?? 20_261_129);
// A hang here is a process still alive after this, far above the registrations' timeouts (10 s): wall time
// measures the machine's load as much as the hook (RELIABILITY.md). The 1 s bound per run is checked in-process,
// on CPU time, where start-up and load do not count.
const DEADLINE_MS = 60_000;
const IN_FLIGHT = 3;
const RESEED_EVERY = 50;

const hooks = discoverHooks();
let sandbox: Sandbox;

beforeAll(() => {
  sandbox = createSandbox("fuzz-process");
  seedFiles(sandbox);
});
afterAll(() => sandbox.cleanup());

describe("fuzz, spawned executables", () => {
  test.each(hooks.map((hook, index) => [hook.name, hook, index] as const))(
    "%s: 40 stdins (closed, empty, 10 MB, binary, malformed, mutated): exit 0 every time, no signal, no hang, " +
      "nothing on stderr, output within limits, no file outside carryover's places",
    async (_name, hook, index) => {
      expect(existsSync(hook.executable), `${hook.executable} is not built: run pnpm build`).toBe(true);
      const seed = SEED + index;
      const cases = processCases(hook.events, sandbox, RUNS_PER_HOOK, seed);
      seedState(sandbox, Date.now());
      const before = snapshotTree(sandbox.root);
      const runs = await mapLimit(cases, IN_FLIGHT, async (fuzzCase, position) => {
        if (position % RESEED_EVERY === RESEED_EVERY - 1) seedState(sandbox, Date.now());
        const stdin = stdinBytes(fuzzCase);
        return runFile(hook.executable, { env: sandbox.env, cwd: sandbox.project, stdin, deadlineMs: DEADLINE_MS });
      });
      const outside = changesOutsideCarryover(before, snapshotTree(sandbox.root), sandbox);
      const failures: string[] = [];
      runs.forEach((run, position) => {
        const stdin = stdinBytes(cases[position]!)?.toString("utf8") ?? "";
        const problem = run.hung
          ? `still running after ${DEADLINE_MS} ms`
          : run.code !== 0
            ? `exit ${run.code} signal ${run.signal}`
            : run.stderr !== ""
              ? `stderr: ${run.stderr.slice(0, 200)}`
              : outputProblem(
                  run.stdout,
                  run.stdout.startsWith("{") ? payloadEvent(stdin) : undefined,
                  hook.events.includes("StatusLine"),
                );
        if (problem) failures.push(`#${position} (seed ${seed}) ${describeCase(cases[position]!)} → ${problem}`);
      });
      recordFigures(`fuzz-process.${hook.name}`, {
        runs: runs.length,
        seed,
        kinds: countKinds(cases),
        exit2: runs.filter((run) => run.code === 2).length,
        nonZeroExits: runs.filter((run) => run.code !== 0).length,
        signals: runs.filter((run) => run.signal !== null && !run.hung).length,
        hung: runs.filter((run) => run.hung).length,
        withStderr: runs.filter((run) => run.stderr !== "").length,
        oversized: runs.filter((run) => run.stdout.length > 10_000).length,
        maxOutputChars: Math.max(...runs.map((run) => run.stdout.length)),
        longestRunMs: Math.round(Math.max(...runs.map((run) => run.durationMs))),
        filesOutside: outside.length,
      });
      expect(failures.slice(0, 20)).toEqual([]);
      expect(outside).toEqual([]);
      expect(runs).toHaveLength(RUNS_PER_HOOK);
    },
    120_000,
  );
});
