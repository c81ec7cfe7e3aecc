import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  appendLedger,
  defaultStateDir,
  openSession,
  recordCompaction,
  recordCompactionStart,
  renderState,
  stampCompactState,
  stateTemplate,
} from "@carryover/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { boundary, prompt, toolCall } from "../test/transcript-lines.ts";
import { type FactsQuery, gatherFacts } from "./facts.ts";

const SESSION = "403d97d7-4487-42f5-859f-548a2f3d8b6f";
const COMPACTED_AT = Date.parse("2026-11-29T17:14:24Z");
let root: string;
let env: Record<string, string>;
let logged: string[];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-recovery-facts-"));
  mkdirSync(join(root, "proj"));
  env = { HOME: join(root, "home"), TMPDIR: join(root, "tmp") };
  logged = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

// Where recovery stands in 2.1.332: at SessionStart(compact) neither the boundary nor PostCompact's ledger entry
// exists yet; by the next prompt both do.
const SESSION_START = {
  atMs: COMPACTED_AT,
  trigger: "auto" as const,
  promptId: "p-now",
  inTranscript: false,
  inLedger: false,
};
const NEXT_PROMPT = { ...SESSION_START, inTranscript: true, inLedger: true };

let transcriptCount = 0;
function transcript(...lines: string[]): string {
  const path = join(root, `t${++transcriptCount}.jsonl`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

function query(overrides: Partial<FactsQuery> = {}): FactsQuery {
  return {
    session: openSession(env, SESSION),
    transcriptPath: transcript(prompt("hello")),
    projectDir: join(root, "proj"),
    stateDir: "",
    changesFile: "CHANGES_SESSION.md",
    compaction: SESSION_START,
    log: (message) => logged.push(message),
    ...overrides,
  };
}

function writeFile(path: string, text: string, mtimeMs?: number): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  if (mtimeMs !== undefined) utimesSync(path, mtimeMs / 1000, mtimeMs / 1000);
  return path;
}

describe("gatherFacts", () => {
  it("reads the state file: its time, headers, whether it is filled", async () => {
    const statePath = join(defaultStateDir(env), `${SESSION}.md`);
    writeFile(
      statePath,
      renderState([], { "## Active Plan": "ship it" }).replace("## Worker Topology\n", ""),
      COMPACTED_AT - 60_000,
    );
    const facts = await gatherFacts(query());
    expect(facts.statePath).toBe(statePath);
    expect(facts.state).toMatchObject({
      path: statePath,
      savedAtMs: COMPACTED_AT - 60_000,
      verification: { ok: false, missing: ["## Worker Topology"], outOfOrder: [] },
      unfilled: false,
      mechanical: false,
    });
    writeFile(statePath, stateTemplate(SESSION, 0));
    expect((await gatherFacts(query())).state?.unfilled).toBe(true);
  });

  it("orders a stamped state by PostCompact's count, before PostCompact ran for this one and after", async () => {
    const statePath = writeFile(
      join(defaultStateDir(env), `${SESSION}.md`),
      renderState([], { "## Active Plan": "x" }),
    );
    expect((await gatherFacts(query())).stateOrder).toBeNull();
    recordCompaction(openSession(env, SESSION), "p-old", COMPACTED_AT + 600_000);
    stampCompactState(env, SESSION);
    writeFile(statePath, renderState([], { "## Active Plan": "x" }), COMPACTED_AT - 60_000);
    // SessionStart(compact) runs before PostCompact (2.1.332): the record is still the previous compaction's.
    expect((await gatherFacts(query())).stateOrder).toBe("since-previous");
    recordCompaction(openSession(env, SESSION), "p-now", COMPACTED_AT);
    expect((await gatherFacts(query())).stateOrder).toBe("since-previous");
    recordCompaction(openSession(env, SESSION), "p-next", COMPACTED_AT + 1);
    const next = { ...SESSION_START, atMs: COMPACTED_AT + 1, promptId: "p-next" };
    expect((await gatherFacts(query({ compaction: next }))).stateOrder).toBe("before-previous");
  });

  it("uses the configured stateDir, and trusts no symlinked state file", async () => {
    const stateDir = join(root, "states");
    writeFile(join(root, "elsewhere.md"), renderState([], { "## Active Plan": "x" }));
    mkdirSync(stateDir);
    symlinkSync(join(root, "elsewhere.md"), join(stateDir, `${SESSION}.md`));
    const facts = await gatherFacts(query({ stateDir }));
    expect(facts.statePath).toBe(join(stateDir, `${SESSION}.md`));
    expect(facts.state).toBeNull();
  });

  it("trusts no state file in a state dir others can write to (a shared TMPDIR another user made it in)", async () => {
    const stateDir = defaultStateDir(env);
    writeFile(join(stateDir, `${SESSION}.md`), renderState([], { "## Session Decisions": "planted" }));
    chmodSync(stateDir, 0o777);
    const facts = await gatherFacts(query());
    expect(facts.state).toBeNull();
    expect(logged).toEqual([`state file not read: refusing ${stateDir}: writable by others (mode 777)`]);
  });

  it("finds the mechanical snapshot, the changes log and the task list", async () => {
    writeFile(join(root, "home/.claude/carryover/sessions", SESSION, "snapshot.md"), "x", COMPACTED_AT - 5_000);
    writeFile(join(root, "proj/CHANGES_SESSION.md"), "# changes");
    const tasks = join(root, "home/.claude/tasks", SESSION);
    writeFile(join(tasks, "1.json"), JSON.stringify({ id: "1", subject: "a", status: "completed" }));
    writeFile(join(tasks, "2.json"), JSON.stringify({ id: "2", subject: "b", status: "in_progress" }));
    writeFile(join(tasks, "3.json"), JSON.stringify({ id: "3", subject: "c", status: "in_progress" }));
    writeFile(join(tasks, "4.json"), JSON.stringify({ id: "4", subject: "d", status: "deleted" }));
    writeFile(join(tasks, ".lock"), "");
    const facts = await gatherFacts(query());
    expect(facts.snapshot).toEqual({
      path: join(root, "home/.claude/carryover/sessions", SESSION, "snapshot.md"),
      savedAtMs: COMPACTED_AT - 5_000,
    });
    expect(facts.changesFile).toBe(join(root, "proj/CHANGES_SESSION.md"));
    expect(facts.tasks).toEqual({ dir: tasks, total: 3, byStatus: { completed: 1, in_progress: 2 } });
    expect((await gatherFacts(query({ changesFile: "" }))).changesFile).toBeNull();
  });

  it("takes plans, todos, Task-tool tasks and plan mode from the transcript", async () => {
    const plan = writeFile(join(root, "home/.claude/plans/make-a-plan-shimmering-feigenbaum.md"), "# plan");
    const gone = join(root, "home/.claude/plans/old-plan.md");
    const path = transcript(
      prompt("make a plan", "plan"),
      ...toolCall("Write", { file_path: gone, content: "x" }),
      ...toolCall("Write", { file_path: plan, content: "# plan" }),
      ...toolCall("TodoWrite", { todos: [{ content: "old", status: "pending", activeForm: "o" }] }),
      ...toolCall("TodoWrite", { todos: [{ content: "Fix notes", status: "in_progress", activeForm: "Fixing" }] }),
      ...toolCall("TaskCreate", { subject: "Write app.ts", description: "d" }),
    );
    const facts = await gatherFacts(query({ transcriptPath: path }));
    expect(facts.plans).toEqual([plan]);
    expect(facts.todos).toEqual([{ content: "Fix notes", status: "in_progress" }]);
    expect(facts.transcriptTasks).toEqual([{ id: "1", subject: "Write app.ts", status: "pending" }]);
    expect(facts.planModeBefore).toBe(true);
  });

  it("names this compaction by its PreCompact start, as pre-compact's output did", async () => {
    const session = openSession(env, SESSION);
    const previous = COMPACTED_AT - 20 * 60_000;
    appendLedger(session, { atMs: previous, trigger: "auto", promptId: "p-old", summary: "old" }, 50);
    // The previous compaction's start, then this one's: its summary took two minutes.
    recordCompactionStart(session, previous - 60_000);
    recordCompactionStart(session, COMPACTED_AT - 120_000);
    expect((await gatherFacts(query())).compactedAtMs).toBe(COMPACTED_AT - 120_000);
    expect((await gatherFacts(query({ compaction: NEXT_PROMPT }))).compactedAtMs).toBe(COMPACTED_AT - 120_000);
  });

  it("without a start recorded since the previous compaction (no pre-compact), goes by its own time", async () => {
    const session = openSession(env, SESSION);
    const previous = COMPACTED_AT - 5 * 60_000;
    appendLedger(session, { atMs: previous, trigger: "auto", promptId: "p-old", summary: "old" }, 50);
    recordCompactionStart(session, previous - 60_000);
    expect((await gatherFacts(query())).compactedAtMs).toBe(COMPACTED_AT);
  });

  it("the previous compaction is the ledger's last, even where a fast clock dated an earlier one later", async () => {
    appendLedger(
      openSession(env, SESSION),
      { atMs: COMPACTED_AT + 300_000, trigger: "auto", promptId: "p-1", summary: "1" },
      50,
    );
    appendLedger(
      openSession(env, SESSION),
      { atMs: COMPACTED_AT - 600_000, trigger: "auto", promptId: "p-2", summary: "2" },
      50,
    );
    expect((await gatherFacts(query())).previousCompactionAtMs).toBe(COMPACTED_AT - 600_000);
  });

  it("the previous compaction comes from the ledger without this one, else from older boundaries", async () => {
    const earlier = COMPACTED_AT - 3_600_000;
    appendLedger(openSession(env, SESSION), { atMs: earlier, trigger: "auto", promptId: "p-old", summary: "old" }, 50);
    appendLedger(
      openSession(env, SESSION),
      { atMs: COMPACTED_AT - 10, trigger: "auto", promptId: "p-now", summary: "now" },
      50,
    );
    const fromLedger = await gatherFacts(query());
    expect(fromLedger.previousCompactionAtMs).toBe(earlier);
    expect(fromLedger.earlierSummaries).toEqual({
      path: join(root, "home/.claude/carryover/sessions", SESSION, "compactions.jsonl"),
      count: 1,
    });

    rmSync(join(root, "home/.claude/carryover/sessions", SESSION, "compactions.jsonl"));
    const path = transcript(
      boundary("manual", "2026-11-29T16:00:00.000Z"),
      boundary("auto", "2026-11-29T17:14:25.000Z"),
    );
    const fromTranscript = await gatherFacts(query({ transcriptPath: path, compaction: NEXT_PROMPT }));
    expect(fromTranscript.previousCompactionAtMs).toBe(Date.parse("2026-11-29T16:00:00.000Z"));
    expect(fromTranscript.earlierSummaries).toBeNull();
    expect(fromTranscript.earlierInTranscript).toEqual({ path, count: 1 });
  });

  it("at SessionStart(compact), every compaction the transcript holds is an earlier one, however recent", async () => {
    // Carryover installed after that compaction: no ledger to go by.
    const path = transcript(prompt("hello"), boundary("manual", "2026-11-29T17:14:14.000Z"), prompt("go on"));
    const facts = await gatherFacts(query({ transcriptPath: path }));
    expect(facts.earlierInTranscript).toEqual({ path, count: 1 });
    expect(facts.previousCompactionAtMs).toBe(COMPACTED_AT - 10_000);
  });

  it("at the next prompt, the transcript's last compaction is this one and the one before the previous", async () => {
    const path = transcript(
      boundary("manual", "2026-11-29T17:13:54.000Z"),
      prompt("go on"),
      boundary("auto", "2026-11-29T17:14:23.000Z"),
    );
    const facts = await gatherFacts(query({ transcriptPath: path, compaction: NEXT_PROMPT }));
    expect(facts.earlierInTranscript).toEqual({ path, count: 1 });
    expect(facts.previousCompactionAtMs).toBe(COMPACTED_AT - 30_000);
  });

  it("takes the transcript's compactions in its order, where a clock that ran fast dated one after now", async () => {
    const path = transcript(
      boundary("manual", "2026-11-29T18:00:00.000Z"),
      prompt("go on"),
      boundary("auto", "2026-11-29T17:00:00.000Z"),
    );
    const facts = await gatherFacts(query({ transcriptPath: path }));
    expect(facts.earlierInTranscript).toEqual({ path, count: 2 });
    expect(facts.previousCompactionAtMs).toBe(Date.parse("2026-11-29T17:00:00.000Z"));
  });

  it("without prompt ids, the ledger holds this compaction only once PostCompact ran: its last entry", async () => {
    const session = openSession(env, SESSION);
    appendLedger(session, { atMs: COMPACTED_AT - 20_000, trigger: "manual", summary: "first" }, 50);
    const noId = { atMs: COMPACTED_AT, trigger: "auto" as const };
    const atStart = await gatherFacts(query({ compaction: { ...noId, inTranscript: false, inLedger: false } }));
    expect(atStart.earlierSummaries?.count).toBe(1);
    expect(atStart.previousCompactionAtMs).toBe(COMPACTED_AT - 20_000);
    appendLedger(session, { atMs: COMPACTED_AT + 1_000, trigger: "auto", summary: "this one" }, 50);
    const atPrompt = await gatherFacts(query({ compaction: { ...noId, inTranscript: true, inLedger: true } }));
    expect(atPrompt.earlierSummaries?.count).toBe(1);
    expect(atPrompt.previousCompactionAtMs).toBe(COMPACTED_AT - 20_000);
  });

  it("without a transcript it still reports what is on disk, and logs why", async () => {
    const facts = await gatherFacts(query({ transcriptPath: join(root, "missing.jsonl") }));
    expect(facts).toMatchObject({ plans: [], todos: null, planModeBefore: false, state: null });
    expect(logged).toEqual([expect.stringMatching(/^transcript not read \(.*missing\.jsonl/)]);
  });
});

// Expected values written by reading each transcript (test-fixtures/real-transcripts/README.md).
const REAL = join(import.meta.dirname, "../../../test-fixtures/real-transcripts");
const realCases = readdirSync(REAL)
  .filter((name) => name.endsWith(".expected.json"))
  .map((name) => JSON.parse(readFileSync(join(REAL, name), "utf8")));

describe.each(realCases.map((expected) => [expected.transcript as string, expected] as const))(
  "gatherFacts on %s",
  (name, expected) => {
    // Recovery runs just after a compaction, later than everything in these files.
    const compaction = { atMs: Date.UTC(2026, 10, 30), trigger: "auto" as const, inTranscript: false, inLedger: false };

    it("points to its earlier compactions, todos and tasks as the transcript has them", async () => {
      const facts = await gatherFacts(query({ transcriptPath: join(REAL, name), compaction }));
      expect(facts.earlierInTranscript).toEqual(
        expected.compactions.length > 0 ? { path: join(REAL, name), count: expected.compactions.length } : null,
      );
      expect(facts.previousCompactionAtMs === null).toBe(expected.compactions.length === 0);
      expect(facts.todos).toEqual(expected.todos);
      expect(facts.transcriptTasks).toEqual(expected.tasks);
    });

    it("read at the next prompt, takes its last compaction for the one just made", async () => {
      const atPrompt = { ...compaction, inTranscript: true, inLedger: true };
      const facts = await gatherFacts(query({ transcriptPath: join(REAL, name), compaction: atPrompt }));
      const earlier = expected.compactions.length - 1;
      expect(facts.earlierInTranscript).toEqual(earlier > 0 ? { path: join(REAL, name), count: earlier } : null);
    });
  },
);
