import type { CompactState, TmuxWindow, Worker } from "@carryover/core";
import { describe, expect, it } from "vitest";
import type { RecoveryFacts } from "./facts.ts";
import { renderRecovery } from "./render.ts";

const AT = Date.parse("2026-11-29T17:14:24Z");
const MIN = 60_000;
const STATE = "/tmp/claude-1000/carryover/compact-state/s.md";

function facts(overrides: Partial<RecoveryFacts> = {}): RecoveryFacts {
  return {
    compactedAtMs: AT,
    statePath: STATE,
    state: null,
    stateOrder: null,
    snapshot: null,
    previousCompactionAtMs: null,
    earlierSummaries: null,
    earlierInTranscript: null,
    plans: [],
    tasks: null,
    transcriptTasks: [],
    todos: null,
    changesFile: null,
    planModeBefore: false,
    workers: { live: [], ended: [], omitted: 0 },
    tmux: null,
    ...overrides,
  };
}

function state(overrides: Partial<CompactState> = {}): CompactState {
  const verification = { ok: true, missing: [], outOfOrder: [] };
  return {
    path: STATE,
    savedAtMs: AT - 4 * MIN,
    stamp: null,
    verification,
    unfilled: false,
    mechanical: false,
    sections: {},
    ...overrides,
  };
}

const render = (overrides: Partial<RecoveryFacts> = {}, maxChars = 10_000) =>
  renderRecovery(facts(overrides), maxChars);

describe("renderRecovery", () => {
  it("always states the compaction and that the summary's next steps are hypotheses", () => {
    expect(render({ trigger: "auto" })).toBe(
      [
        "carryover recovery: this conversation was compacted at 2026-11-29T17:14:24Z, auto. " +
          "The summary of the earlier conversation was written by a model from the history: " +
          "its next steps are hypotheses, to be checked against the plan, the state file and the task list below " +
          "before acting on them.",
        "What this session keeps on disk:",
        `- No compact-prep state was saved for this session (/compact-prep writes it to ${STATE}).`,
      ].join("\n"),
    );
  });

  it("dates the state file against this compaction and the previous one", () => {
    const previous = AT - 60 * MIN;
    expect(render({ state: state(), previousCompactionAtMs: previous })).toContain(
      `- Compact-prep state: ${STATE}, written through /compact-prep, saved 2026-11-29T17:10:24Z, ` +
        "4 min before this compaction and after the previous one (2026-11-29T16:14:24Z). It records the active plan",
    );
    expect(render({ state: state({ savedAtMs: AT - 90 * MIN }), previousCompactionAtMs: previous })).toContain(
      "saved 2026-11-29T15:44:24Z, 90 min before this compaction " +
        "and before the previous one too (2026-11-29T16:14:24Z): " +
        "it predates the last compaction and may describe an earlier stage of the work.",
    );
    expect(render({ state: state() })).toContain("4 min before this compaction (no earlier compaction recorded).");
    expect(render({ state: state({ savedAtMs: AT + 30_000 }) })).toContain(
      "saved 2026-11-29T17:14:54Z, after this compaction.",
    );
  });

  it("orders the state by the compaction count where the clock was off (a compaction recorded 10 min fast)", () => {
    const fastPrevious = AT + 6 * MIN;
    const snapshot = { path: "/h/.claude/carryover/sessions/s/snapshot.md", savedAtMs: fastPrevious };
    const fresh = render({
      state: state(),
      stateOrder: "since-previous",
      previousCompactionAtMs: fastPrevious,
      snapshot,
    });
    expect(fresh).toContain(
      "saved 2026-11-29T17:10:24Z, after the previous compaction and before this one " +
        "by the compaction count (the clock disagrees: it was off at one of them).",
    );
    expect(fresh).not.toContain("predates");
    expect(fresh).not.toContain("Mechanical snapshot");
    const incomplete = state({ verification: { ok: false, missing: ["## Worker Topology"], outOfOrder: [] } });
    expect(
      render({ state: incomplete, stateOrder: "since-previous", snapshot: { ...snapshot, savedAtMs: AT - 5 * MIN } }),
    ).toContain("- Mechanical snapshot:");
    const stale = render({
      state: state({ savedAtMs: AT + MIN }),
      stateOrder: "before-previous",
      previousCompactionAtMs: AT - 60 * MIN,
      snapshot,
    });
    expect(stale).toContain("before the previous compaction too by the compaction count");
    expect(stale).toContain("- Mechanical snapshot:");
    // Where the clock agrees with the count, the times are given as ever.
    expect(render({ state: state(), stateOrder: "since-previous", previousCompactionAtMs: AT - 60 * MIN })).toContain(
      "4 min before this compaction and after the previous one (2026-11-29T16:14:24Z).",
    );
  });

  it("lists the workers right after the compaction line, with how to check on each before starting it again", () => {
    const shell: Worker = {
      kind: "shell",
      id: "b1w4gdyd7",
      description: "dev server",
      command: "pnpm dev",
      state: "running",
      background: true,
      outputFile: "/tmp/claude-0/p/s/tasks/b1w4gdyd7.output",
      startedAtMs: AT - 5 * MIN,
      endedAtMs: null,
    };
    const agent: Worker = {
      kind: "agent",
      id: "a9ba829fe6a0ede78",
      description: "bg researcher",
      command: null,
      agentType: "general-purpose",
      state: "completed",
      background: true,
      transcript: "/home/u/.claude/projects/p/s/subagents/agent-a9ba829fe6a0ede78.jsonl",
      startedAtMs: AT - 4 * MIN,
      endedAtMs: AT - MIN,
    };
    const window: TmuxWindow = {
      session: "work",
      windowId: "@1",
      windowName: "main",
      panes: [
        { id: "%0", index: 0, title: "host", command: "claude", path: "/p", pid: 10, self: true },
        { id: "%1", index: 1, title: "worker-a", command: "sleep", path: "/p", pid: 11, self: false },
      ],
    };
    const text = render({ workers: { live: [shell], ended: [agent], omitted: 0 }, tmux: window });
    expect(text.split("\n").slice(1, 9)).toEqual([
      "Workers this session started, as the transcript has them now: " +
        "facts to check before starting the same work again.",
      "- Still at work:",
      "  - shell `b1w4gdyd7` “dev server”: `pnpm dev` — running; output: /tmp/claude-0/p/s/tasks/b1w4gdyd7.output " +
        "(that file has its output so far; TaskStop with task_id b1w4gdyd7 stops it)",
      "- Ended:",
      "  - agent `a9ba829fe6a0ede78` (general-purpose) “bg researcher” — completed; " +
        "transcript: /home/u/.claude/projects/p/s/subagents/agent-a9ba829fe6a0ede78.jsonl " +
        "(its result is in that transcript)",
      "- tmux window @1 “main” (`tmux capture-pane -p -t <pane>` shows what a pane shows):",
      "  - pane `%0` “host” (this Claude Code session) — running `claude` in /p",
      "  - pane `%1` “worker-a” — running `sleep` in /p",
    ]);
    const since = render({ workers: { live: [], ended: [agent], omitted: 0 }, previousCompactionAtMs: AT - 60 * MIN });
    expect(since).toContain("\n- Ended since the previous compaction:\n  - agent `a9ba829fe6a0ede78`");
    expect(since).not.toContain("Still at work");
    expect(render()).not.toContain("Workers");
  });

  it("says what is wrong with the state file", () => {
    const broken = render({
      state: state({ verification: { ok: false, missing: ["## Worker Topology"], outOfOrder: ["## Current Phase"] } }),
    });
    expect(broken).toContain(
      "It lacks ## Worker Topology. Out of order: ## Current Phase " +
        "(expected order: # Compact Prep State, ## Active Plan,",
    );
    expect(render({ state: state({ unfilled: true }) })).toContain(
      "Every section in it is empty (an unfilled template).",
    );
    expect(render({ state: state({ mechanical: true }) })).toContain("written by carryover from the transcript, saved");
  });

  it("points to the mechanical snapshot when the state file does not cover this compaction", () => {
    const snapshot = { path: "/h/.claude/carryover/sessions/s/snapshot.md", savedAtMs: AT - 10_000 };
    const line = `- Mechanical snapshot: ${snapshot.path}, written 2026-11-29T17:14:14Z, 10 s before this compaction`;
    expect(render({ snapshot })).toContain(line);
    expect(render({ snapshot, state: state({ unfilled: true }) })).toContain(line);
    expect(
      render({ snapshot, state: state({ savedAtMs: AT - 90 * MIN }), previousCompactionAtMs: AT - 60 * MIN }),
    ).toContain("- Mechanical snapshot:");
    expect(render({ snapshot: { ...snapshot, savedAtMs: AT - 5 * MIN }, state: state() })).not.toContain(
      "Mechanical snapshot",
    );
  });

  it("asks for plan mode to be confirmed again when it was on", () => {
    expect(render({ planModeBefore: true })).toContain(
      "Plan mode was on before this compaction: whether it still applies must be confirmed with the user " +
        "before any file is edited.",
    );
    expect(render({ planModeBefore: true, permissionModeNow: "default" })).toContain(
      "is off now (default): re-entering it must be confirmed with the user",
    );
    expect(render({ planModeBefore: true, permissionModeNow: "plan" })).toContain(
      "is on now: leaving it must be confirmed with the user again.",
    );
    expect(render({ permissionModeNow: "default" })).not.toContain("Plan mode");
  });

  it("lists plans, tasks, changes log and earlier summaries as paths", () => {
    const text = render({
      plans: ["/h/.claude/plans/a.md", "/h/.claude/plans/b.md"],
      tasks: { dir: "/h/.claude/tasks/s", total: 3, byStatus: { completed: 1, in_progress: 2 } },
      changesFile: "/p/CHANGES_SESSION.md",
      earlierSummaries: { path: "/h/.claude/carryover/sessions/s/compactions.jsonl", count: 2 },
    });
    expect(text).toContain(
      "- Plan files this session wrote (latest last): /h/.claude/plans/a.md; /h/.claude/plans/b.md",
    );
    expect(text).toContain(
      "- Task list: /h/.claude/tasks/s/ (3 tasks: 1 completed, 2 in_progress); TaskList shows it.",
    );
    expect(text).toContain("- Session changes log: /p/CHANGES_SESSION.md");
    expect(text).toContain(
      "- Summaries of the 2 earlier compactions: " +
        "/h/.claude/carryover/sessions/s/compactions.jsonl (JSONL, oldest first)",
    );
    expect(render({ plans: ["/h/.claude/plans/a.md"] })).toContain(
      "- Plan file this session wrote: /h/.claude/plans/a.md",
    );
    expect(render({ earlierSummaries: { path: "/l.jsonl", count: 1 } })).toContain(
      "- The summary of the earlier compaction: /l.jsonl (JSONL, oldest first)",
    );
    expect(render({ earlierInTranscript: { path: "/t.jsonl", count: 2 } })).toContain(
      "- Summaries of the 2 earlier compactions: in the transcript, /t.jsonl " +
        "(the user line marked isCompactSummary after each)",
    );
  });

  it("gives the TodoWrite list and Task-tool tasks, which have no file, as items", () => {
    const todos = Array.from({ length: 22 }, (_, i) => ({
      content: `step ${i + 1}`,
      status: i === 0 ? "in_progress" : "pending",
    }));
    const text = render({ todos, transcriptTasks: [{ id: "1", subject: "Write app.ts", status: "completed" }] });
    expect(text).toContain("- Tasks this session created with the Task tools: #1 Write app.ts [completed]");
    expect(text).toContain(
      "- The latest TodoWrite list (TodoWrite keeps no file; this is its last state in the transcript):\n" +
        "  - [in_progress] step 1\n  - [pending] step 2\n",
    );
    expect(text).toContain("  - [pending] step 20\n  - … 2 more");
  });

  it("stays within maxChars, cutting visibly", () => {
    const todos = Array.from({ length: 20 }, (_, i) => ({
      content: `a long todo item number ${i} `.repeat(8),
      status: "pending",
    }));
    const text = render({ todos }, 1_000);
    expect(text.length).toBeLessThanOrEqual(1_000);
    expect(text).toMatch(/\[… cut by carryover to stay within the hook output limit\]$/);
    expect(text).toContain("its next steps are hypotheses");
  });
});
