import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { transcriptDir } from "../../../../test-fixtures/transcripts/dir.ts";
import { type GeneratedTruth, generateTranscript } from "../../../../test-fixtures/transcripts/generate.ts";
import {
  boundaryLine as boundary,
  callLine as call,
  promptLine as prompt,
  resultLine as result,
  summaryLine,
  writeTranscript,
} from "../../../../test-fixtures/transcripts/lines.ts";
import type { Activity } from "./facts.ts";
import { scanTranscript } from "./scan.ts";

const PAYLOADS = join(import.meta.dirname, "../../../../test-fixtures/payloads");
const SAMPLE = join(PAYLOADS, "transcript-sample.jsonl");
const AUTO_SAMPLE = join(PAYLOADS, "transcript-sample.auto-compact.jsonl");

const { path: inDir, write: transcript } = transcriptDir("carryover-scan-");

describe("scanTranscript on captured transcripts", () => {
  it("reads files, commands, errors, todos, the last request and the compaction of the manual sample", async () => {
    const facts = await scanTranscript(SAMPLE, { lineNumbers: true });
    expect(facts.filesChanged).toEqual([
      { path: "/home/user/proj/src/app.ts", tools: ["Write"], count: 1 },
      { path: "/home/user/proj/notes.txt", tools: ["Edit"], count: 1 },
    ]);
    expect(facts.commands.map(({ command, failed }) => [command.slice(0, 20), failed])).toEqual([
      ["env | sort > /home/u", false],
      ["ls /definitely-not-h", true],
    ]);
    expect(facts.errors).toMatchObject([
      {
        tool: "Bash",
        target: "ls /definitely-not-here-xyz",
        message: expect.stringContaining("No such file or directory"),
        resolved: false,
      },
      {
        tool: "Edit",
        target: "/home/user/proj/notes.txt",
        message: "String to replace not found in file.\nString: NOT-PRESENT",
        resolved: false,
      },
    ]);
    expect(facts.todos).toEqual([
      { content: "Write app.ts", status: "completed" },
      { content: "Fix notes", status: "in_progress" },
      { content: "Run tests", status: "pending" },
    ]);
    expect(facts.lastUserRequest).toBe("what next?");
    expect(facts.compactions).toMatchObject([
      {
        line: 69,
        boundary: true,
        trigger: "manual",
        preTokens: 105,
        postTokens: 2756,
        atMs: Date.parse("2026-11-29T17:13:24.874Z"),
      },
    ]);
    expect(facts.planMode).toBe(false);
    expect(facts.skipped).toEqual({ badLines: 0, truncatedTail: false, longLines: 0, headBytes: 0, droppedEntries: 0 });
  });

  it("since the last compaction drops earlier activity but keeps state that outlives a compaction", async () => {
    const facts = await scanTranscript(SAMPLE, { lineNumbers: true });
    expect(facts.since.filesChanged).toEqual([]);
    expect(facts.since.commands).toEqual([]);
    expect(facts.since.errors).toEqual([]);
    expect(facts.since.compaction).toMatchObject({ trigger: "manual", line: 69, boundary: true });
    expect(facts.todos).toHaveLength(3);
    expect(facts.lastUserRequest).toBe("what next?");
    expect(facts.compactions).toHaveLength(1);
  });

  it("reads the auto-compaction sample", async () => {
    const facts = await scanTranscript(AUTO_SAMPLE);
    expect(facts.commands.map((entry) => entry.command)).toEqual(["echo a", "echo b", "echo c"]);
    expect(facts.compactions).toMatchObject([{ trigger: "auto", preTokens: 70005, postTokens: 2616 }]);
    expect(facts.lastUserRequest).toMatch(/^do it MOCKSCRIPT/);
  });
});

describe("scanTranscript decisions", () => {
  it("marks an error resolved once the same command, or any change to the same file, succeeds later", async () => {
    const path = transcript([
      prompt("fix the build"),
      call("t1", "Bash", { command: "pnpm test" }),
      result("t1", "Exit code 1\n2 failing", true),
      call("t2", "Edit", { file_path: "/p/a.ts", old_string: "x", new_string: "y" }),
      result("t2", "<tool_use_error>String to replace not found in file.</tool_use_error>", true),
      call("t3", "Bash", { command: "pnpm lint" }),
      result("t3", "Exit code 2", true),
      call("t4", "Write", { file_path: "/p/a.ts", content: "fixed" }),
      result("t4", "File created"),
      call("t5", "Bash", { command: "pnpm test" }),
      result("t5", "ok"),
    ]);
    const facts = await scanTranscript(path);
    expect(facts.errors.map(({ target, resolved, resolution }) => [target, resolved, resolution])).toEqual([
      ["pnpm test", true, "the same command succeeded later"],
      ["/p/a.ts", true, "a later Write of the same file succeeded"],
      ["pnpm lint", false, undefined],
    ]);
    expect(facts.errors[1]!.message).toBe("String to replace not found in file.");
    expect(facts.commands).toEqual([
      { command: "pnpm test", failed: false, runs: 2, failures: 1 },
      { command: "pnpm lint", failed: true, runs: 1, failures: 1 },
    ]);
    expect(facts.filesChanged).toEqual([{ path: "/p/a.ts", tools: ["Write"], count: 1 }]);
  });

  it("does not let a success that came before the error resolve it", async () => {
    const path = transcript([
      call("t1", "Bash", { command: "make" }),
      result("t1", "ok"),
      call("t2", "Bash", { command: "make" }),
      result("t2", "Exit code 2", true),
    ]);
    const facts = await scanTranscript(path);
    expect(facts.errors).toMatchObject([{ target: "make", resolved: false }]);
    expect(facts.commands).toEqual([{ command: "make", failed: true, runs: 2, failures: 1 }]);
  });

  it("attributes errors inside a parallel batch to the right calls", async () => {
    const path = transcript([
      call("a", "Read", { file_path: "/p/missing.ts" }, "msg_batch"),
      call("b", "Bash", { command: "ls" }, "msg_batch"),
      result("b", "files"),
      result("a", "File does not exist.", true),
      call("c", "Bash", { command: "pwd" }),
      result("c", "/p"),
    ]);
    const facts = await scanTranscript(path);
    expect(facts.errors).toMatchObject([{ tool: "Read", target: "/p/missing.ts", resolved: false }]);
    expect(facts.commands.map((entry) => [entry.command, entry.failed])).toEqual([
      ["ls", false],
      ["pwd", false],
    ]);
  });

  it("ignores tool calls and errors inside bookkeeping lines and inside tool output", async () => {
    const path = transcript([
      {
        type: "api-request-blob",
        sessionId: "s",
        message: {
          role: "assistant",
          content: [{ type: "tool_use", id: "z", name: "Write", input: { file_path: "/p/ghost.ts" } }],
        },
      },
      {
        type: "api-request-blob",
        sessionId: "s",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "z", content: "x", is_error: true }] },
      },
      call("r", "Read", { file_path: "/p/log.jsonl" }),
      result("r", '{"type":"tool_use","id":"q","name":"Write","input":{"file_path":"/p/ghost.ts"}} "is_error":true'),
    ]);
    const facts = await scanTranscript(path);
    expect(facts.filesChanged).toEqual([]);
    expect(facts.errors).toEqual([]);
  });

  it("keeps the latest main-chain TodoWrite list and the Task tools' list", async () => {
    const path = transcript([
      call("w1", "TodoWrite", { todos: [{ content: "old", status: "pending", activeForm: "x" }] }),
      result("w1", "ok"),
      call("w2", "TodoWrite", { todos: [{ content: "new", status: "in_progress", activeForm: "x" }] }),
      result("w2", "ok"),
      call("w3", "TodoWrite", { todos: [{ content: "subagent", status: "pending" }] }, "msg_side", true),
      result("w3", "ok"),
      call("c1", "TaskCreate", { subject: "Write app", description: "d" }),
      result("c1", "Task #7 created successfully: Write app", false, { task: { id: "7", subject: "Write app" } }),
      call("c2", "TaskCreate", { subject: "Drop me", description: "d" }),
      result("c2", "Task #8 created successfully: Drop me", false, { task: { id: "8", subject: "Drop me" } }),
      call("u1", "TaskUpdate", { taskId: "7", status: "completed" }),
      result("u1", "Updated task #7 status"),
      call("u2", "TaskUpdate", { taskId: "8", status: "deleted" }),
      result("u2", "Updated task #8 status"),
    ]);
    const facts = await scanTranscript(path);
    expect(facts.todos).toEqual([{ content: "new", status: "in_progress" }]);
    expect(facts.tasks).toEqual([{ id: "7", subject: "Write app", status: "completed" }]);
  });

  it("finds a TaskCreate's id in a later chunk, whatever order the call's keys come in", async () => {
    const filler = Array.from({ length: 12 }, (_, i) => result(`r${i}`, "x".repeat(100_000)));
    const nameFirst = JSON.stringify(call("c2", "TaskCreate", { subject: "Second" })).replace(
      '{"type":"tool_use","id":"c2","name":"TaskCreate"',
      '{"name":"TaskCreate","type":"tool_use","id":"c2"',
    );
    const path = transcript([
      call("c1", "TaskCreate", { subject: "First" }),
      ...filler,
      result("c1", "Task #41 created successfully: First", false, { task: { id: "41", subject: "First" } }),
      nameFirst,
      ...filler,
      result("c2", "Task #42 created successfully: Second", false, { task: { id: "42", subject: "Second" } }),
    ]);
    expect((await scanTranscript(path)).tasks).toEqual([
      { id: "41", subject: "First", status: "pending" },
      { id: "42", subject: "Second", status: "pending" },
    ]);
  });

  it("lists plan files apart from project files and follows the permission mode", async () => {
    const path = transcript([
      prompt("make a plan", "plan"),
      call("p1", "Write", { file_path: "/home/u/.claude/plans/make-a-plan-brave-turing.md", content: "# Plan" }),
      result("p1", "File created"),
      { type: "permission-mode", permissionMode: "plan", sessionId: "s" },
    ]);
    const facts = await scanTranscript(path);
    expect(facts.plansWritten).toEqual(["/home/u/.claude/plans/make-a-plan-brave-turing.md"]);
    expect(facts.filesChanged).toEqual([]);
    expect(facts.planMode).toBe(true);
    const after = await scanTranscript(transcript([prompt("make a plan", "plan"), prompt("go ahead", "acceptEdits")]));
    expect(after.planMode).toBe(false);
    expect(after.lastUserRequest).toBe("go ahead");
  });

  it("takes the last prompt a person typed, not command echoes, meta lines or summaries", async () => {
    const path = transcript([
      prompt("refactor the parser"),
      {
        ...prompt("<command-name>/compact</command-name>\n<command-message>compact</command-message>"),
        permissionMode: undefined,
      },
      { ...prompt("Caveat: local command"), isMeta: true },
      {
        ...prompt("This session is being continued from a previous conversation"),
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
      },
      {
        ...prompt([
          { type: "text", text: "<local-command-stdout>Compacted</local-command-stdout>" },
        ] as unknown as string),
      },
    ]);
    expect((await scanTranscript(path)).lastUserRequest).toBe("refactor the parser");
  });

  it("takes slash commands with arguments and bash-mode input as requests, not local ones, /compact-prep", async () => {
    const echo = (name: string, args = "") => ({
      ...prompt(
        `<command-message>${name.slice(1)} is running…</command-message>\n<command-name>${name}</command-name>` +
          (args ? `\n<command-args>${args}</command-args>` : ""),
      ),
      permissionMode: undefined,
    });
    const expansion = { ...prompt("Split complex tasks into subtasks…"), isMeta: true };
    const localOutput = {
      ...prompt("<local-command-stdout>Set effort level to high</local-command-stdout>"),
      permissionMode: undefined,
    };
    const requestOf = async (lines: Parameters<typeof transcript>[0]) =>
      (await scanTranscript(transcript(lines))).lastUserRequest;
    expect(await requestOf([prompt("first"), echo("/orchestrator", "@CLAUDE.md update it"), expansion])).toBe(
      "/orchestrator @CLAUDE.md update it",
    );
    expect(await requestOf([prompt("first"), echo("/git-tools:commit-and-push")])).toBe("/git-tools:commit-and-push");
    expect(
      await requestOf([prompt("first"), { ...prompt("<bash-input>pwd</bash-input>"), permissionMode: undefined }]),
    ).toBe("!pwd");
    expect(await requestOf([prompt("fix the parser"), echo("/effort", "high"), localOutput])).toBe("fix the parser");
    const clearOutput = {
      type: "system",
      subtype: "local_command",
      content: "<local-command-stdout></local-command-stdout>",
    };
    expect(await requestOf([prompt("fix the parser"), echo("/clear"), clearOutput])).toBe("fix the parser");
    expect(await requestOf([prompt("fix the parser"), echo("/compact-prep"), expansion])).toBe("fix the parser");
    // 1.x: no permissionMode, text blocks.
    const old = {
      type: "user",
      isSidechain: false,
      message: { role: "user", content: [{ type: "text", text: "avoid security tasks" }] },
    };
    expect(
      await requestOf([
        old,
        { ...old, message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] } },
      ]),
    ).toBe("avoid security tasks");
  });

  it("knows a compaction that wrote only its summary line (1.0.5x): the context before it, no postTokens", async () => {
    const usage = (tokens: number) => ({
      type: "assistant",
      isSidechain: false,
      message: {
        id: `m${tokens}`,
        role: "assistant",
        model: "claude-sonnet-4",
        content: [{ type: "text", text: "ok" }],
        usage: { input_tokens: tokens, output_tokens: 5 },
      },
    });
    const summaryText =
      "This session is being continued from a previous conversation that ran out of context. " +
      "The conversation is summarized below:\nThe user wants X.\n" +
      "Please continue the conversation from where we left it off without asking the user any further questions.";
    const path = transcript([
      prompt("build it"),
      call("a", "Write", { file_path: "/p/a.ts" }),
      result("a", "ok"),
      usage(155_671),
      prompt("continue"),
      { type: "user", isSidechain: false, isCompactSummary: true, message: { role: "user", content: summaryText } },
      call("b", "Write", { file_path: "/p/b.ts" }),
      result("b", "ok"),
    ]);
    const facts = await scanTranscript(path, { lineNumbers: true });
    expect(facts.compactions).toMatchObject([
      {
        line: 6,
        boundary: false,
        trigger: "unknown",
        preTokens: 155_671,
        postTokens: null,
        summary: "The user wants X.",
      },
    ]);
    expect(facts.since.filesChanged.map((file) => file.path)).toEqual(["/p/b.ts"]);
    expect(facts.filesChanged.map((file) => file.path)).toEqual(["/p/a.ts", "/p/b.ts"]);
    expect(facts.lastUserRequest).toBe("continue");
  });

  it("gives a boundary the summary line after it, and numbers lines", async () => {
    const path = transcript([
      prompt("go"),
      call("t", "Bash", { command: "false" }),
      result("t", "Exit code 1", true),
      boundary("auto", 90_000),
      summaryLine("Decided A, rejected B."),
    ]);
    const facts = await scanTranscript(path, { lineNumbers: true });
    expect(facts.compactions).toMatchObject([
      {
        line: 4,
        boundary: true,
        trigger: "auto",
        preTokens: 90_000,
        postTokens: 2_000,
        summary: "Decided A, rejected B.",
      },
    ]);
    expect(facts.errors).toMatchObject([{ line: 2, target: "false" }]);
    const { statSync } = await import("node:fs");
    const tail = await scanTranscript(path, { maxBytes: statSync(path).size - 10, lineNumbers: true });
    expect(tail.compactions[0]!.line).toBeNull();
    // Counting lines is a pass over every byte: only when asked.
    expect((await scanTranscript(path)).compactions[0]!.line).toBeNull();
  });

  it("counts a failed check fixed by a later pass of the same check over the same or a wider target", async () => {
    const at = (cwd: string) => ({ cwd });
    const path = transcript([
      { ...call("a", "Bash", { command: "cd /p && uv run ruff check --fix src/pkg/a.py" }), ...at("/") },
      result("a", "Exit code 1\nN818", true),
      { ...call("b", "Bash", { command: "uv run ruff check src/pkg/b.py" }), ...at("/p") },
      result("b", "Exit code 1\nW292", true),
      { ...call("c", "Bash", { command: "uv run ruff check --select E src/" }), ...at("/p") },
      result("c", "ok"),
      { ...call("d", "Bash", { command: 'python3 -c "import a"' }), ...at("/p") },
      result("d", "Traceback", true),
      { ...call("e", "Bash", { command: "go build -o bin main.go" }), ...at("/p") },
      result("e", "undefined: x", true),
      { ...call("f", "Bash", { command: "ls lib || echo none" }), ...at("/p") },
      result("f", "Exit code 2", true),
      {
        ...call("g", "Bash", { command: 'python3 -c "import a" | tail -3; uv run ruff check src/ && go build' }),
        ...at("/p"),
      },
      result("g", "ok"),
      { ...call("h", "Bash", { command: "ls lib 2>/dev/null || echo none" }), ...at("/p") },
      result("h", "none"),
      { ...call("i", "Bash", { command: "uv run ruff check src/" }), ...at("/elsewhere") },
      result("i", "ok"),
    ]);
    const facts = await scanTranscript(path);
    expect(facts.errors.map(({ target, resolved, resolution }) => [target, resolved, resolution])).toEqual([
      [
        "cd /p && uv run ruff check --fix src/pkg/a.py",
        true,
        "a later run of the same check over the same or a wider target passed",
      ],
      ["uv run ruff check src/pkg/b.py", true, "a later run of the same check over the same or a wider target passed"],
      ['python3 -c "import a"', false, undefined],
      ["go build -o bin main.go", true, "a later run of the same check over the same or a wider target passed"],
      ["ls lib || echo none", false, undefined],
    ]);
    // c's `--select E` narrows the check; g's pipeline passing says nothing of python3 (its status is tail's).
  });

  it("fixes a call the tool refused as malformed by the next call of that tool that ran", async () => {
    const path = transcript([
      call("a", "Task", { description: "Analyze", subagent_type: "general-purpose" }, "m1"),
      call("b", "Task", { description: "Other", prompt: "p" }, "m1"),
      result(
        "a",
        "<tool_use_error>InputValidationError: Task failed due to the following issue:\n" +
          "The required parameter `prompt` is missing</tool_use_error>",
        true,
      ),
      call("c", "Task", { description: "Analyze again", prompt: "p" }, "m2"),
      call("d", "WebFetch", { url: "https://x.test/a" }, "m3"),
      result("d", "Request failed with status code 402", true),
      call("e", "WebFetch", { url: "https://x.test/b" }, "m4"),
    ]);
    const facts = await scanTranscript(path);
    expect(facts.errors.map(({ tool, target, resolved, resolution }) => [tool, target, resolved, resolution])).toEqual([
      ["Task", "Analyze", true, "the next call of the same tool ran"],
      ["WebFetch", "https://x.test/a", false, undefined],
    ]);
  });

  it("keeps inline subagents' calls apart while they run in parallel (1.x)", async () => {
    const side = (id: string, name: string, input: Record<string, unknown>) => call(id, name, input, `msg_${id}`, true);
    const path = transcript([
      call("t1", "Task", { description: "one", prompt: "p" }, "main1"),
      call("t2", "Task", { description: "two", prompt: "p" }, "main1"),
      side("a1", "Bash", { command: "npm run build" }),
      side("b1", "Write", { file_path: "/p/b.ts" }),
      { ...result("a1", "Build error occurred", true), isSidechain: true },
      { ...result("b1", "File has not been read yet", true), isSidechain: true },
      side("b2", "Write", { file_path: "/p/c.ts" }),
      { ...result("b2", "ok"), isSidechain: true },
      result("t1", "done"),
      result("t2", "done"),
      call("m", "Bash", { command: "echo done" }, "main2"),
    ]);
    const facts = await scanTranscript(path);
    expect(facts.errors.map(({ tool, target }) => [tool, target])).toEqual([
      ["Bash", "npm run build"],
      ["Write", "/p/b.ts"],
    ]);
    expect(facts.filesChanged.map((file) => file.path)).toEqual(["/p/c.ts"]);
    expect(facts.commands).toEqual([
      { command: "npm run build", failed: true, runs: 1, failures: 1 },
      { command: "echo done", failed: false, runs: 1, failures: 0 },
    ]);
  });

  it("counts the work of 2.x subagents from their own transcripts, fixed across files by time", async () => {
    const session = inDir("sub-session");
    const path = transcript([
      prompt("do it"),
      call("x", "Bash", { command: "make test" }),
      result("x", "Exit code 2", true),
      call("ag", "Agent", { description: "fix tests", prompt: "p" }),
      result("ag", "Async agent launched successfully."),
      boundary("auto", 100_000),
      call("y", "Bash", { command: "echo after" }),
      result("y", "after"),
    ]);
    const sessionFile = `${session}.jsonl`;
    writeTranscript(sessionFile, [], "");
    const { renameSync } = await import("node:fs");
    renameSync(path, sessionFile);
    mkdirSync(join(session, "subagents"), { recursive: true });
    const sub = (id: string, name: string, input: Record<string, unknown>) => ({
      ...call(id, name, input),
      isSidechain: true,
      agentId: "a1",
    });
    writeTranscript(join(session, "subagents", "agent-a1.jsonl"), [
      { ...prompt("p"), isSidechain: true },
      sub("s1", "Write", { file_path: "/p/test.ts" }),
      { ...result("s1", "ok"), isSidechain: true },
      sub("s2", "Bash", { command: "make test" }),
      { ...result("s2", "ok"), isSidechain: true },
    ]);
    writeTranscript(join(session, "subagents", "agent-a1.meta.json"), [{ agentType: "general-purpose" }]);
    const facts = await scanTranscript(sessionFile);
    expect(facts.subagentFiles).toBe(1);
    expect(facts.filesChanged.map((file) => file.path)).toEqual(["/p/test.ts"]);
    expect(facts.errors).toMatchObject([
      { target: "make test", resolved: true, resolution: "the same command succeeded later" },
    ]);
    expect(facts.commands.find((entry) => entry.command === "make test")).toEqual({
      command: "make test",
      failed: false,
      runs: 2,
      failures: 1,
    });
    // The subagent's lines are timed after the boundary: they are recent work.
    expect(facts.since.filesChanged.map((file) => file.path)).toEqual(["/p/test.ts"]);
    expect(facts.lastUserRequest).toBe("do it");
    expect((await scanTranscript(sessionFile, { subagents: false })).filesChanged).toEqual([]);
  });

  it("leaves carryover's own writes and commands out of the session's work", async () => {
    const path = transcript([
      prompt("go"),
      call("a", "Write", { file_path: "/tmp/claude-compact-state/s.md", content: "# state" }),
      result("a", "ok"),
      call("b", "Bash", { command: '"/home/u/.claude/skills/compact-prep/carryover-state" verify --session s' }),
      result("b", "Exit code 1\nmissing header", true),
      call("c", "Edit", { file_path: "/p/CHANGES_SESSION.md" }),
      result("c", "ok"),
      call("d", "Write", { file_path: "/p/src/app.ts" }),
      result("d", "ok"),
    ]);
    const facts = await scanTranscript(path, {
      ownPaths: ["/tmp/claude-compact-state/s.md", "/p/CHANGES_SESSION.md", "/home/u/.claude/projects/-p/memory"],
    });
    expect(facts.filesChanged.map((file) => file.path)).toEqual(["/p/src/app.ts"]);
    expect(facts.commands).toEqual([]);
    expect(facts.errors).toEqual([]);
    expect(facts.carryoverActivity).toEqual({ fileChanges: 2, commands: 1 });
  });

  it("counts a torn last line and unreadable candidates, and keeps going", async () => {
    const path = transcript(
      [call("t1", "Bash", { command: "ls" }), '{"type":"user","is_error":true, broken', result("t1", "ok")],
      '\n{"parentUuid":"x","message":{"content":[{"type":"tool_use","id":"t9"',
    );
    const facts = await scanTranscript(path);
    expect(facts.commands).toEqual([{ command: "ls", failed: false, runs: 1, failures: 0 }]);
    expect(facts.skipped).toMatchObject({ badLines: 2, truncatedTail: true });
  });

  it("reads only the last maxBytes", async () => {
    const lines = [
      call("a", "Bash", { command: "first" }),
      result("a", "ok"),
      call("b", "Bash", { command: "second" }),
      result("b", "ok"),
    ];
    const path = transcript(lines);
    const tailBytes = JSON.stringify(lines[2]).length + JSON.stringify(lines[3]).length + 2;
    const facts = await scanTranscript(path, { maxBytes: tailBytes + 10 });
    expect(facts.commands.map((entry) => entry.command)).toEqual(["second"]);
    expect(facts.bytesRead).toBe(tailBytes + 10);
    expect(facts.skipped.headBytes).toBeGreaterThan(0);
  });

  it("passes over a line longer than 16 MiB without losing the lines around it", async () => {
    const huge = result("r", "x".repeat(17 * 1024 * 1024));
    const path = transcript([
      call("a", "Bash", { command: "before" }),
      result("a", "ok"),
      huge,
      call("b", "Bash", { command: "after" }),
      result("b", "ok"),
    ]);
    const facts = await scanTranscript(path);
    expect(facts.commands.map((entry) => entry.command)).toEqual(["before", "after"]);
    expect(facts.skipped.longLines).toBe(1);
  });

  it("rejects a transcript that does not exist", async () => {
    await expect(scanTranscript(inDir("missing.jsonl"))).rejects.toThrow(/ENOENT/);
  });

  it("refuses a FIFO nobody writes, a device that never ends and a directory, instead of hanging", async () => {
    const fifo = inDir("fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    for (const path of [fifo, "/dev/zero", inDir(".")]) {
      await expect(scanTranscript(path)).rejects.toThrow(
        expect.objectContaining({ code: "BAD_INPUT", message: `${path} is not a regular file` }),
      );
    }
  });
});

describe("scanTranscript on a generated 24 MB transcript", () => {
  let path: string;
  let truth: GeneratedTruth;
  beforeAll(() => {
    path = inDir("generated.jsonl");
    truth = generateTranscript(path, { targetBytes: 24_000_000, compactions: 3, seed: 42, tornTail: true });
  });

  const activity = (facts: Activity) => ({
    files: Object.fromEntries(facts.filesChanged.map((file) => [file.path, file.count])),
    commands: Object.fromEntries(
      facts.commands.map(({ command, runs, failures, failed }) => [command, { count: runs, failures, failed }]),
    ),
    errors: facts.errors.length,
    resolvedErrors: facts.errors.filter((error) => error.resolved).length,
  });

  it("finds exactly what the generator put after the last compaction", async () => {
    const facts = await scanTranscript(path);
    expect(activity(facts.since)).toEqual(truth.section);
    expect(truth.section.errors).toBeGreaterThan(0);
    expect(facts.compactions).toHaveLength(truth.compactions);
    expect(facts.todos).toEqual(truth.todos);
    expect(facts.tasks).toEqual(truth.tasks);
    expect(facts.lastUserRequest).toBe(truth.lastUserRequest);
    expect(facts.skipped).toMatchObject({ truncatedTail: true, badLines: 1, longLines: 0 });
    expect(facts.bytesRead).toBe(truth.bytes);
  });

  it("and over the whole file", async () => {
    expect(activity(await scanTranscript(path))).toEqual(truth.whole);
  });
});
