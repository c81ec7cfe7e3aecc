import {
  chmodSync,
  existsSync,
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
  autoMemoryDir,
  compactStatePath,
  defaultStateDir,
  loadConfig,
  MECHANICAL_SNAPSHOT_MARK,
  mechanicalSnapshotPath,
  openSession,
  type PreCompactInput,
  readCompactionStarts,
  recordCompaction,
  renderState,
  STATE_HEADERS,
  stampCompactState,
  verifyState,
} from "@carryover/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  boundaryLine,
  callLine,
  promptLine,
  resultLine,
  summaryLine,
  writeTranscript,
} from "../../../test-fixtures/transcripts/lines.ts";
import { keys } from "./config.ts";
import { hook } from "./hook.ts";
import type { PreCompactJournal } from "./journal.ts";

const SESSION = "403d97d7-4487-42f5-859f-548a2f3d8b6f";
const NOW = Date.parse("2026-11-29T17:14:24.000Z");
let root: string;
let home: string;
let project: string;
let env: Record<string, string>;
let logged: string[];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-pre-compact-"));
  home = join(root, "home");
  project = join(root, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(home);
  env = { HOME: home, TMPDIR: join(root, "tmp") };
  logged = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const transcriptFile = () => join(root, "transcript.jsonl");

/** A session: Write, Edit, a failing Bash fixed by a rerun, a failing Edit left unresolved. */
function workedSession(extra: Parameters<typeof writeTranscript>[1] = []): void {
  writeTranscript(transcriptFile(), [
    promptLine("Add the answer module and fix the notes"),
    callLine("t1", "Write", { file_path: join(project, "src/app.ts"), content: "export const answer = 42;\n" }),
    resultLine("t1", "File created successfully"),
    callLine("t2", "Edit", { file_path: join(project, "notes.txt"), old_string: "world", new_string: "there" }),
    resultLine("t2", "The file has been updated successfully."),
    callLine("t3", "Bash", { command: "cat build.txt" }),
    resultLine("t3", "Exit code 1\ncat: build.txt: No such file or directory", true),
    callLine("t4", "Bash", { command: "touch build.txt" }),
    resultLine("t4", ""),
    callLine("t5", "Bash", { command: "cat build.txt" }),
    resultLine("t5", ""),
    callLine("t6", "Edit", { file_path: join(project, "notes.txt"), old_string: "NOT-PRESENT", new_string: "x" }),
    resultLine(
      "t6",
      "<tool_use_error>String to replace not found in file.\nString: NOT-PRESENT</tool_use_error>",
      true,
    ),
    ...extra,
  ]);
}

function input(overrides: Partial<PreCompactInput> = {}): PreCompactInput {
  return {
    session_id: SESSION,
    transcript_path: transcriptFile(),
    cwd: project,
    hook_event_name: "PreCompact",
    trigger: "auto",
    custom_instructions: null,
    prompt_id: "prompt-1",
    ...overrides,
  };
}

function invoke(payload: PreCompactInput = input(), nowMs = NOW, runEnv: Record<string, string> = env) {
  const config = loadConfig("pre-compact", keys, runEnv, project);
  const session = openSession(runEnv, payload.session_id);
  const context = {
    input: payload,
    event: "PreCompact" as const,
    env: runEnv,
    nowMs,
    config,
    projectDir: project,
    session,
    log: (line: string) => logged.push(line),
  };
  return hook.run(context, undefined) as Promise<string | null>;
}

const read = (path: string) => readFileSync(path, "utf8");
const changesLog = () => read(join(project, "CHANGES_SESSION.md"));
const memoryDir = () => autoMemoryDir(env, project);
const topicFiles = () => readdirSync(memoryDir()).filter((name) => name.startsWith("carryover-session-"));
const sessionsListed = () =>
  read(join(memoryDir(), "carryover-sessions.md"))
    .split("\n")
    .filter((line) => line.startsWith("- ["));
const INDEX_LINE =
  "- [carryover: recent sessions' work logs](carryover-sessions.md)" +
  " — what each session was doing when its context was compacted";

function writePrepState(decisions: string, constraints: string, mtimeMs: number): string {
  const path = compactStatePath(env, SESSION);
  mkdirSync(defaultStateDir(env), { recursive: true });
  const bodies = Object.fromEntries(STATE_HEADERS.slice(1).map((header) => [header, "filled"]));
  writeFileSync(
    path,
    renderState([`Session: ${SESSION}`], {
      ...bodies,
      "## Session Decisions": decisions,
      "## Constraints and Blockers": constraints,
    }),
  );
  utimesSync(path, mtimeMs / 1000, mtimeMs / 1000);
  return path;
}

describe("the changes log", () => {
  it("gets a section with the files modified, the commands run and the errors with their fixes", async () => {
    workedSession();
    await invoke();
    const log = changesLog();
    expect(log).toMatch(/^# Session changes\n/);
    expect(log).toContain("## 2026-11-29 17:14 UTC · auto compaction · session 403d97d7\n");
    expect(log).toContain("Last request: “Add the answer module and fix the notes”");
    expect(log).toContain("### Files modified (2)\n- `src/app.ts` — Write\n- `notes.txt` — Edit\n");
    expect(log).toContain(
      "### Commands run (2)\n- `cat build.txt` — failed 1 of 2 runs, then passed\n- `touch build.txt`\n",
    );
    expect(log).toContain("### Errors (2, 1 fixed)\n");
    expect(log).toContain(
      "- Bash `cat build.txt`: Exit code 1 cat: build.txt: No such file or directory → " +
        "fixed: the same command succeeded later\n",
    );
    expect(log).toContain(
      "- Edit `notes.txt`: String to replace not found in file. String: NOT-PRESENT → unresolved\n",
    );
  });

  it("has one section per compaction: a second PreCompact for its prompt replaces it, a new one adds", async () => {
    writeFileSync(join(project, "CHANGES_SESSION.md"), "# My notes\n\nkeep this line\n");
    workedSession();
    await invoke();
    workedSession([
      callLine("t7", "Write", { file_path: join(project, "later.ts"), content: "x" }),
      resultLine("t7", "ok"),
    ]);
    await invoke();
    let log = changesLog();
    expect(log.match(/^## .* compaction/gm)).toHaveLength(1);
    expect(log).toContain("### Files modified (3)");
    expect(log).toMatch(/^# My notes\n\nkeep this line\n\n## /);

    writeTranscript(transcriptFile(), [
      boundaryLine("auto", 70_000),
      promptLine("next"),
      callLine("n1", "Bash", { command: "pnpm test" }),
      resultLine("n1", "ok"),
    ]);
    await invoke(input({ prompt_id: "prompt-2", trigger: "manual" }), NOW + 60_000);
    log = changesLog();
    expect(log.match(/^## .* compaction/gm)).toHaveLength(2);
    expect(log.indexOf("### Files modified (3)")).toBeLessThan(
      log.indexOf("## 2026-11-29 17:15 UTC · manual compaction"),
    );
    expect(log.split("## 2026-11-29 17:15 UTC")[1]).toContain("- `pnpm test`\n");
  });

  it("goes where changesFile says, and nowhere when it is empty", async () => {
    workedSession();
    await invoke(input(), NOW, { ...env, CARRYOVER_CHANGES_FILE: "docs/changes.md" });
    expect(existsSync(join(project, "CHANGES_SESSION.md"))).toBe(false);
    mkdirSync(join(project, "docs"));
    await invoke(input(), NOW, { ...env, CARRYOVER_CHANGES_FILE: "docs/changes.md" });
    expect(read(join(project, "docs/changes.md"))).toContain("### Files modified (2)");
    expect(logged.join("\n")).toMatch(/changes log: ENOENT/);
    rmSync(join(project, "docs"), { recursive: true });
    await invoke(input(), NOW, { ...env, CARRYOVER_CHANGES_FILE: "" });
    expect(existsSync(join(project, "CHANGES_SESSION.md"))).toBe(false);
  });

  it("does not write through a symlink, and the other parts still happen", async () => {
    workedSession();
    writeFileSync(join(root, "outside.md"), "theirs\n");
    symlinkSync(join(root, "outside.md"), join(project, "CHANGES_SESSION.md"));
    const output = await invoke();
    expect(read(join(root, "outside.md"))).toBe("theirs\n");
    expect(logged.join("\n")).toMatch(/changes log: refusing .*CHANGES_SESSION\.md: it is a symlink/);
    expect(existsSync(mechanicalSnapshotPath(openSession(env, SESSION)))).toBe(true);
    expect(output).toContain("Historical summaries");
  });
});

describe("the mechanical snapshot", () => {
  it("is written from the transcript, with compact-prep's headers, when /compact-prep did not run", async () => {
    workedSession([
      callLine("p1", "Write", { file_path: join(home, ".claude/plans/answer-plan.md"), content: "# Answer plan\n" }),
      resultLine("p1", "ok"),
    ]);
    mkdirSync(join(home, ".claude/plans"), { recursive: true });
    writeFileSync(join(home, ".claude/plans/answer-plan.md"), "# Answer plan\n1. write\n");
    await invoke();
    const snapshot = read(mechanicalSnapshotPath(openSession(env, SESSION)));
    expect(verifyState(snapshot).ok).toBe(true);
    expect(snapshot.split("\n")[2]).toBe(MECHANICAL_SNAPSHOT_MARK);
    expect(snapshot).toContain("## Active Plan\n\n~/.claude/plans/answer-plan.md — Answer plan\n");
    expect(snapshot).toContain("Last request: “Add the answer module and fix the notes”");
    expect(snapshot).toContain(
      "## Constraints and Blockers\n\nUnresolved errors:\n- Edit `notes.txt`: String to replace not found",
    );
    expect(snapshot).toContain(
      "## Editing Files\n\nChanged since the previous compaction:\n- `src/app.ts` — Write\n- `notes.txt` — Edit\n",
    );
    expect(snapshot).toContain(`Full history: ${transcriptFile()}`);
  });

  it("is not written when a fresh compact-prep state exists, which stays untouched", async () => {
    workedSession();
    const statePath = writePrepState("Adopted B over A: A leaks memory.", "Never push to main.", NOW - 60_000);
    const before = read(statePath);
    await invoke();
    expect(existsSync(mechanicalSnapshotPath(openSession(env, SESSION)))).toBe(false);
    expect(read(statePath)).toBe(before);
  });

  it("is written when the compact-prep state predates the previous compaction", async () => {
    workedSession();
    writePrepState("old decision", "old rule", NOW - 3_600_000);
    appendLedger(openSession(env, SESSION), { atMs: NOW - 1_800_000, trigger: "auto", summary: "first summary" }, 50);
    await invoke();
    expect(read(mechanicalSnapshotPath(openSession(env, SESSION)))).toContain(MECHANICAL_SNAPSHOT_MARK);
  });

  it("orders a state init stamped by PostCompact's count: a clock that ran fast at a compaction", async () => {
    workedSession();
    const session = openSession(env, SESSION);
    // The previous compaction was recorded 10 min ahead; the state was saved just after it, by the right clock.
    const fastAtMs = NOW + 10 * 60_000;
    recordCompaction(session, "prompt-0", fastAtMs);
    appendLedger(session, { atMs: fastAtMs, trigger: "auto", promptId: "prompt-0", summary: "first summary" }, 50);
    mkdirSync(defaultStateDir(env), { recursive: true });
    stampCompactState(env, SESSION);
    writePrepState("Adopted B over A: A leaks memory.", "Never push to main.", NOW - 60_000);
    const output = await invoke();
    expect(existsSync(mechanicalSnapshotPath(session))).toBe(false);
    expect(output).toContain("Adopted B over A: A leaks memory.");

    // Stamped before that compaction, the state is stale whatever its mtime says.
    stampCompactState(env, SESSION);
    recordCompaction(session, "prompt-1", NOW - 5 * 60_000);
    writePrepState("old decision", "old rule", NOW + 20 * 60_000);
    await invoke(input({ prompt_id: "prompt-2" }), NOW + 60_000);
    expect(read(mechanicalSnapshotPath(session))).toContain(MECHANICAL_SNAPSHOT_MARK);
  });
});

describe("the workers", () => {
  const notification = (taskId: string, status: string) => ({
    type: "queue-operation",
    operation: "enqueue",
    timestamp: "2026-11-29T17:14:00.000Z",
    content: [
      "<task-notification>",
      `<task-id>${taskId}</task-id>`,
      `<status>${status}</status>`,
      "<summary>Background command ended</summary>",
      "</task-notification>",
    ].join("\n"),
  });
  const output = (taskId: string) => `/tmp/claude-0/s/tasks/${taskId}.output`;
  const shell = (id: string, taskId: string, command: string, description: string) => [
    callLine(id, "Bash", { command, description, run_in_background: true }),
    resultLine(
      id,
      `Command running in background with ID: ${taskId}. Output is being written to: ${output(taskId)}.`,
      false,
      {
        backgroundTaskId: taskId,
      },
    ),
  ];

  it("are in the snapshot's Worker Topology and the steering: a running shell with its id, an ended one", async () => {
    workedSession([
      ...shell("w1", "bsrv01", "pnpm dev --port 3001", "dev server"),
      ...shell("w2", "blint02", "pnpm lint", "lint"),
      notification("blint02", "failed"),
      callLine("w3", "Agent", { description: "survey the API", prompt: "x", subagent_type: "Explore" }),
      resultLine("w3", "the API has 3 routes", false, { status: "completed", agentId: "a1b2c3", agentType: "Explore" }),
    ]);
    const steering = (await invoke()) as string;
    const snapshot = read(mechanicalSnapshotPath(openSession(env, SESSION)));
    const topology = snapshot.split("## Worker Topology\n\n")[1]!.split("\n## ")[0]!;
    expect(topology).toBe(
      [
        "Still at work when this compaction began (from the transcript):",
        "- shell `bsrv01` “dev server”: `pnpm dev --port 3001` — running; " +
          "output: /tmp/claude-0/s/tasks/bsrv01.output",
        "Ended earlier:",
        "- shell `blint02` “lint”: `pnpm lint` — failed; output: /tmp/claude-0/s/tasks/blint02.output",
        "- agent `a1b2c3` (Explore) “survey the API” — completed",
        "Roles and assignments beyond these descriptions are not recorded mechanically.",
        "",
      ].join("\n"),
    );
    expect(steering).toContain(
      "what it was doing, so that none is started again: shell `bsrv01` (“dev server”, `pnpm dev --port 3001`).",
    );
    expect(steering).not.toContain("blint02");
  });

  it("leave out what ended before the previous compaction, and keep one started after it that still runs", async () => {
    workedSession([
      ...shell("w1", "bold01", "make old", "old job"),
      notification("bold01", "completed"),
      boundaryLine("auto", 70_000, "2026-11-29T17:14:05.000Z"),
      ...shell("w2", "bnew02", "make new", "new job"),
    ]);
    await invoke();
    const snapshot = read(mechanicalSnapshotPath(openSession(env, SESSION)));
    expect(snapshot).toContain("- shell `bnew02` “new job”: `make new` — running");
    expect(snapshot).not.toContain("bold01");
  });

  it("say so when there are none and the session is not inside tmux", async () => {
    workedSession();
    await invoke();
    expect(read(mechanicalSnapshotPath(openSession(env, SESSION)))).toContain(
      "## Worker Topology\n\nNo background shell, monitor, subagent or cron in the transcript, and not inside tmux.\n",
    );
  });
});

describe("the memory entry", () => {
  it("is a dated topic file in Claude Code's format, in the sessions list MEMORY.md has one line to", async () => {
    workedSession();
    mkdirSync(memoryDir(), { recursive: true });
    writeFileSync(join(memoryDir(), "MEMORY.md"), "- [Build](build.md) — how to build");
    await invoke();
    expect(topicFiles()).toEqual(["carryover-session-2026-11-29-403d97d7.md"]);
    const topic = read(join(memoryDir(), topicFiles()[0]!));
    const head = [
      "---",
      "name: carryover-session-2026-11-29-403d97d7",
      'description: "Work log of session 403d97d7 (2026-11-29) before compaction: ' +
        'Add the answer module and fix the notes"',
      "metadata:",
      "  type: project",
      "---",
      "",
    ].join("\n");
    expect(topic.slice(0, head.length)).toBe(head);
    expect(topic).toContain("**Why:**");
    expect(topic).toContain("**How to apply:**");
    expect(topic).toContain("- Task: Add the answer module and fix the notes\n");
    expect(topic).toContain("- Decisions: not recorded (/compact-prep did not save them before this compaction).");
    expect(topic).toContain("- Files changed: `src/app.ts`, `notes.txt`\n");
    expect(topic).toContain("- Unresolved: Edit `notes.txt`: String to replace not found in file. String: NOT-PRESENT");
    expect(read(join(memoryDir(), "MEMORY.md"))).toBe(`- [Build](build.md) — how to build\n${INDEX_LINE}\n`);
    const sessions = read(join(memoryDir(), "carryover-sessions.md"));
    expect(sessions).toMatch(/^---\nname: carryover-sessions\ndescription: ".*"\nmetadata:\n {2}type: project\n---\n/);
    const entry =
      "- [2026-11-29 403d97d7: Add the answer module and fix the notes](carryover-session-2026-11-29-403d97d7.md)";
    expect(sessions).toContain(`\n${entry}\n`);
  });

  it("keeps the last 20 sessions, newest first, prunes older logs, folds in an earlier version's lines", async () => {
    mkdirSync(memoryDir(), { recursive: true });
    const old = Array.from({ length: 25 }, (_, i) => {
      const id = `0000${String(i).padStart(4, "0")}`;
      const file = `carryover-session-2026-11-01-${id}.md`;
      writeFileSync(join(memoryDir(), file), "---\n---\n\nSession x: saved by carryover's pre-compact hook.\n");
      return `- [Session 2026-11-01 ${id}: task ${i}](${file}) — work log saved before compaction`;
    });
    const index = `- [Build](build.md) — how to build\n${old.join("\n")}\n- [Mine](mine.md)\n`;
    writeFileSync(join(memoryDir(), "MEMORY.md"), index);
    workedSession();
    await invoke();
    const lines = ["- [Build](build.md) — how to build", "- [Mine](mine.md)", INDEX_LINE];
    expect(read(join(memoryDir(), "MEMORY.md")).trimEnd().split("\n")).toEqual(lines);
    const listed = sessionsListed();
    expect(listed).toHaveLength(20);
    expect(listed[0]).toContain("403d97d7");
    expect(listed[1]).toBe("- [2026-11-01 00000024: task 24](carryover-session-2026-11-01-00000024.md)");
    expect(listed[19]).toContain("00000006");
    // The 6 oldest fell off the list, and their work logs with them.
    expect(topicFiles()).toHaveLength(20);
    expect(topicFiles()).not.toContain("carryover-session-2026-11-01-00000005.md");
  });

  it("adds no second index line for the same session; each compaction gets its section in its topic file", async () => {
    workedSession();
    await invoke();
    await invoke();
    writeTranscript(transcriptFile(), [boundaryLine("auto", 70_000), promptLine("then ship it")]);
    await invoke(input({ prompt_id: "prompt-2" }), NOW + 86_400_000);
    const index = read(join(memoryDir(), "MEMORY.md"));
    expect(index.trimEnd().split("\n")).toHaveLength(1);
    expect(topicFiles()).toHaveLength(1);
    expect(sessionsListed()).toHaveLength(1);
    const topic = read(join(memoryDir(), topicFiles()[0]!));
    expect(topic.match(/^## .* compaction$/gm)).toEqual([
      "## 2026-11-29 17:14 UTC · auto compaction",
      "## 2026-11-30 17:14 UTC · auto compaction",
    ]);
    expect(topic).toContain("- Task: then ship it");
  });

  it("quotes the compact-prep decisions and constraints", async () => {
    workedSession();
    writePrepState("Adopted B over A: A leaks memory.", "Never push to main.", NOW - 60_000);
    await invoke();
    const topic = read(join(memoryDir(), topicFiles()[0]!));
    expect(topic).toContain(
      "- Decisions (from /compact-prep, saved 2026-11-29 17:13 UTC):\n  Adopted B over A: A leaks memory.\n",
    );
    expect(topic).toContain("- Constraints (from /compact-prep, saved 2026-11-29 17:13 UTC):\n  Never push to main.");
  });

  it("quotes no compact-prep state from a state dir others can write to (a shared TMPDIR)", async () => {
    workedSession();
    writePrepState("PLANTED: delete the repository.", "none", NOW - 60_000);
    chmodSync(defaultStateDir(env), 0o777);
    const steering = await invoke();
    expect(read(join(memoryDir(), topicFiles()[0]!))).not.toContain("PLANTED");
    expect(steering).not.toContain("PLANTED");
    expect(logged.join("\n")).toMatch(
      /compact-prep state: refusing .*\/compact-state: writable by others \(mode 777\)/,
    );
  });

  it("is not filed when auto-memory is off", async () => {
    workedSession();
    await invoke(input(), NOW, { ...env, CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1" });
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude/settings.json"), JSON.stringify({ autoMemoryEnabled: false }));
    await invoke();
    expect(existsSync(memoryDir())).toBe(false);
    await invoke(input(), NOW, { ...env, CARRYOVER_PRE_COMPACT_MEMORY_ENTRY: "false" });
    expect(existsSync(memoryDir())).toBe(false);
  });
});

describe("the summary steering it prints", () => {
  it("asks for Historical summaries and explicit decision sections on the first compaction", async () => {
    workedSession();
    const output = (await invoke()) as string;
    expect(output.split("\n")[0]).toBe(
      "carryover pre-compact: what the summary of this compaction (auto, 2026-11-29 17:14 UTC) must hold; " +
        "it concerns that summary only.",
    );
    expect(output).toContain(
      'The summary begins with a section "Historical summaries" holding "none yet": ' +
        "the session's transcript has no earlier compaction.",
    );
    expect(output).toContain('- "Rejected options": what was ruled out, each with the reason it was rejected.');
    expect(output).toContain(
      "files changed: `src/app.ts`, `notes.txt`; " +
        "unresolved errors: Edit notes.txt (String to replace not found in file. String: NOT-PRESENT)",
    );
    expect(output).not.toMatch(/^\s*[{[]/);
    expect(output).not.toMatch(/\b(Begin|Keep|Carry|Write|name these)\b/);
  });

  it("carries forward an earlier compaction the transcript holds, never calling this one the first", async () => {
    const summary = {
      type: "user",
      isCompactSummary: true,
      message: {
        role: "user",
        content:
          "This session is being continued from a previous conversation that ran out of context. " +
          "The conversation is summarized below:\nEARLIER: chose Postgres over SQLite (concurrency).\n" +
          "Please continue the conversation from where we left it off.",
      },
      timestamp: "2026-11-29T16:00:00.000Z",
    };
    // 1.0.5x: a summary line and no compact_boundary; no ledger (carryover installed after it).
    workedSession([summary, callLine("t7", "Write", { file_path: join(project, "after.ts") }), resultLine("t7", "ok")]);
    const output = (await invoke()) as string;
    expect(output).not.toContain("none yet");
    expect(output).toContain("what the earlier compaction of this session recorded, oldest first");
    expect(output).toContain(
      "<earlier-summaries>\n[1] unknown compaction, 2026-11-29 16:00 UTC:\n" +
        "EARLIER: chose Postgres over SQLite (concurrency).\n</earlier-summaries>",
    );
    expect(output).toContain("files changed: `after.ts`.");
    expect(changesLog()).toContain("### Files modified (1)\n- `after.ts` — Write\n");
  });

  it("after a manual /compact, quotes only the summaries the conversation does not open with", async () => {
    workedSession();
    appendLedger(
      openSession(env, SESSION),
      { atMs: NOW - 7_200_000, trigger: "manual", promptId: "a", summary: "FIRST: chose SQLite." },
      50,
    );
    appendLedger(
      openSession(env, SESSION),
      { atMs: NOW - 3_600_000, trigger: "auto", promptId: "b", summary: "SECOND: parser done." },
      50,
    );
    const output = (await invoke(input({ trigger: "manual" }))) as string;
    expect(output).toContain("(manual, 2026-11-29 17:14 UTC)");
    expect(output).toContain("The conversation opens with the latest one's summary (auto, 2026-11-29 16:14 UTC).");
    expect(output).toContain("FIRST: chose SQLite.");
    expect(output).not.toContain("SECOND: parser done.");
    expect(output).not.toContain("\u001b");
  });

  it.each([
    ["15 s", 15_000],
    ["2 min", 120_000],
  ])("names each earlier compaction by the time its own output gave (summaries of %s)", async (_, summaryMs) => {
    const lines: Record<string, unknown>[] = [];
    const compacted = (trigger: "manual" | "auto", atMs: number, summary: string) => {
      const at = new Date(atMs).toISOString();
      lines.push(boundaryLine(trigger, 90_000, at), summaryLine(summary, at));
      writeTranscript(transcriptFile(), lines);
    };
    lines.push(promptLine("Start the parser"));
    writeTranscript(transcriptFile(), lines);
    // Each boundary is written after its summary, in a later minute than its PreCompact's.
    const first = Date.parse("2026-11-29T15:13:50.000Z");
    const firstOutput = (await invoke(input({ trigger: "manual", prompt_id: "a" }), first)) as string;
    compacted("manual", first + summaryMs, "FIRST: chose SQLite.");
    const second = Date.parse("2026-11-29T16:13:50.000Z");
    const secondOutput = (await invoke(input({ trigger: "manual", prompt_id: "b" }), second)) as string;
    compacted("manual", second + summaryMs, "SECOND: parser done.");
    const output = (await invoke(input({ prompt_id: "c" }))) as string;

    expect(firstOutput).toContain("this compaction (manual, 2026-11-29 15:13 UTC)");
    expect(secondOutput).toContain("this compaction (manual, 2026-11-29 16:13 UTC)");
    expect(secondOutput).toContain(
      "The conversation opens with the latest one's summary (manual, 2026-11-29 15:13 UTC).",
    );
    expect(output).toContain(
      "[1] manual compaction, 2026-11-29 15:13 UTC:\nFIRST: chose SQLite.\n" +
        "[2] manual compaction, 2026-11-29 16:13 UTC:\nSECOND: parser done.",
    );
  });

  it("leaves carryover's own writes and commands out of what it names", async () => {
    const statePath = compactStatePath(env, SESSION);
    workedSession([
      callLine("s1", "Write", { file_path: statePath, content: "# state" }),
      resultLine("s1", "File created successfully"),
      callLine("s2", "Bash", {
        command: `"${home}/.claude/skills/compact-prep/carryover-state" verify --session ${SESSION}`,
      }),
      resultLine("s2", "ok"),
    ]);
    const output = (await invoke()) as string;
    expect(output).not.toContain(statePath);
    expect(changesLog()).not.toContain(statePath);
    expect(changesLog()).not.toContain("carryover-state");
  });

  it("keeps the ledger's order of earlier summaries when the clock ran fast at one of them", async () => {
    workedSession();
    appendLedger(
      openSession(env, SESSION),
      { atMs: NOW - 600_000, trigger: "manual", promptId: "a", summary: "FIRST (clock fast)." },
      50,
    );
    appendLedger(
      openSession(env, SESSION),
      { atMs: NOW - 1_200_000, trigger: "auto", promptId: "b", summary: "SECOND." },
      50,
    );
    const output = (await invoke()) as string;
    expect(output).toMatch(
      /\[1\] manual compaction, [^\n]*\nFIRST \(clock fast\)\.\n\[2\] auto compaction, [^\n]*\nSECOND\./,
    );
  });

  it("carries earlier summaries forward, oldest first, and quotes the compact-prep state", async () => {
    workedSession();
    appendLedger(
      openSession(env, SESSION),
      { atMs: NOW - 7_200_000, trigger: "manual", promptId: "a", summary: "FIRST: chose SQLite." },
      50,
    );
    appendLedger(
      openSession(env, SESSION),
      { atMs: NOW - 3_600_000, trigger: "auto", promptId: "b", summary: "SECOND: parser done." },
      50,
    );
    writePrepState("Adopted B over A: A leaks memory.", "Never push to main.", NOW - 60_000);
    const output = (await invoke()) as string;
    expect(output).toContain("what the 2 earlier compactions of this session recorded, oldest first");
    expect(output).not.toContain("The conversation opens with");
    expect(output).toContain(
      "<earlier-summaries>\n[1] manual compaction, 2026-11-29 15:14 UTC:\nFIRST: chose SQLite.\n" +
        "[2] auto compaction, 2026-11-29 16:14 UTC:\nSECOND: parser done.\n</earlier-summaries>",
    );
    expect(output).toContain(
      "Session Decisions:\nAdopted B over A: A leaks memory.\nConstraints and Blockers:\nNever push to main.",
    );
  });

  it("says when the compact-prep state it quotes predates the previous compaction", async () => {
    workedSession();
    appendLedger(
      openSession(env, SESSION),
      { atMs: NOW - 3_600_000, trigger: "auto", promptId: "b", summary: "S." },
      50,
    );
    writePrepState("Adopted B over A: A leaks memory.", "Never push to main.", NOW - 7_200_000);
    const output = (await invoke()) as string;
    expect(output).toContain("predates the previous compaction and may describe an earlier stage of the work");
    expect(output).not.toContain("carry it faithfully");
    expect(output).toContain("Session Decisions:\nAdopted B over A: A leaks memory.");
  });

  it("condenses long summaries to stay within steeringMaxChars, keeping some of each", async () => {
    workedSession();
    for (let i = 1; i <= 6; i++)
      appendLedger(
        openSession(env, SESSION),
        { atMs: NOW - (10 - i) * 60_000, trigger: "auto", summary: `S${i} ${"word ".repeat(1_000)}` },
        50,
      );
    const output = (await invoke(input(), NOW, { ...env, CARRYOVER_PRE_COMPACT_STEERING_MAX_CHARS: "4000" })) as string;
    expect(output.length).toBeLessThanOrEqual(4_000);
    for (let i = 1; i <= 6; i++) expect(output).toContain(`S${i} word`);
    expect(output).toContain("[…]");
    expect(output).toContain('"Current phase"');
  });

  it("prints nothing with steering off, and still journals", async () => {
    workedSession();
    expect(await invoke(input(), NOW, { ...env, CARRYOVER_PRE_COMPACT_STEERING: "false" })).toBeNull();
    expect(existsSync(join(project, "CHANGES_SESSION.md"))).toBe(true);
  });

  it("still steers when the transcript cannot be read, and writes nothing else", async () => {
    const output = await invoke(input({ transcript_path: join(root, "missing.jsonl") }));
    expect(output).toContain("Historical summaries");
    expect(existsSync(join(project, "CHANGES_SESSION.md"))).toBe(false);
    expect(existsSync(mechanicalSnapshotPath(openSession(env, SESSION)))).toBe(false);
    expect(logged.join("\n")).toMatch(/transcript not read/);
  });
});

it("journals what it saw and wrote, and when the compaction began", async () => {
  workedSession();
  await invoke();
  const journal = JSON.parse(
    readFileSync(join(home, ".claude/carryover/sessions", SESSION, "pre-compact.json"), "utf8"),
  ) as PreCompactJournal;
  expect(journal).toMatchObject({
    trigger: "auto",
    promptId: "prompt-1",
    atMs: NOW,
    transcriptPath: transcriptFile(),
    wrote: {
      changesFile: join(project, "CHANGES_SESSION.md"),
      snapshot: mechanicalSnapshotPath(openSession(env, SESSION)),
      memoryTopic: join(memoryDir(), "carryover-session-2026-11-29-403d97d7.md"),
    },
  });
  expect(journal.facts?.filesChanged.map((file) => file.path)).toEqual([
    join(project, "src/app.ts"),
    join(project, "notes.txt"),
  ]);
  expect(readCompactionStarts(openSession(env, SESSION))).toEqual([NOW]);
});

it("records the compaction's start without the transcript too", async () => {
  const output = await invoke(input({ transcript_path: join(root, "missing.jsonl") }));
  expect(output).toContain("Historical summaries");
  expect(readCompactionStarts(openSession(env, SESSION))).toEqual([NOW]);
});
