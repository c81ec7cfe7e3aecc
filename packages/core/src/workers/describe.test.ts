import { describe, expect, it } from "vitest";
import type { Worker } from "../transcript/facts.ts";
import { compactionWorkers, workerLine } from "./describe.ts";

const AT = Date.parse("2026-11-29T17:00:00Z");
const worker = (id: string, state: Worker["state"], startedAtMs: number, endedAtMs: number | null = null): Worker => ({
  kind: "shell",
  id,
  description: id,
  command: `run ${id}`,
  state,
  background: true,
  startedAtMs,
  endedAtMs,
});

describe("compactionWorkers", () => {
  it("keeps the live workers whenever they started, and those that ended since the previous compaction", () => {
    const workers = [
      worker("old-running", "running", AT - 60_000),
      worker("ended-before", "completed", AT - 60_000, AT - 30_000),
      worker("ended-after", "failed", AT - 60_000, AT + 30_000),
      worker("cut-off-after", "unknown", AT + 10_000),
      { ...worker("cron", "scheduled", AT - 90_000), kind: "cron" as const },
    ];
    const split = compactionWorkers(workers, AT);
    expect(split.live.map((entry) => entry.id)).toEqual(["old-running", "cron"]);
    expect(split.ended.map((entry) => entry.id)).toEqual(["ended-after", "cut-off-after"]);
    expect(compactionWorkers(workers, null).ended.map((entry) => entry.id)).toEqual([
      "ended-before",
      "ended-after",
      "cut-off-after",
    ]);
  });

  it("keeps the latest within its limits and counts what it left out", () => {
    const many = Array.from({ length: 30 }, (_, index) => worker(`w${index}`, "running", AT + index));
    const split = compactionWorkers(many, null);
    expect(split.live).toHaveLength(20);
    expect(split.live[0]!.id).toBe("w10");
    expect(split.omitted).toBe(10);
  });
});

describe("workerLine", () => {
  it("says what the worker is, where it stands and where its output is", () => {
    const failed = {
      ...worker("b1", "failed", AT, AT),
      detail: 'Background command "x" failed with exit code 3',
      outputFile: "/t/b1.output",
    };
    expect(workerLine(failed)).toBe("shell `b1` “b1”: `run b1` — failed (exit code 3); output: /t/b1.output");
    const agent: Worker = {
      ...worker("a1", "running", AT),
      kind: "agent",
      command: null,
      agentType: "Explore",
      background: false,
    };
    expect(workerLine(agent)).toBe("agent `a1` (Explore) “a1” — running (its call has not returned)");
    expect(workerLine({ ...worker("b2", "stopped", AT, AT), command: "echo `x`" })).toBe(
      "shell `b2` “b2”: `` echo `x` `` — no longer tracked: its Claude Code process ended before it finished",
    );
  });
});
