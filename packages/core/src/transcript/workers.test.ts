import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { transcriptDir } from "../../../../test-fixtures/transcripts/dir.ts";
import {
  callLine as call,
  promptLine as prompt,
  resultLine as result,
} from "../../../../test-fixtures/transcripts/lines.ts";
import type { Worker } from "./facts.ts";
import { scanTranscript } from "./scan.ts";

const PAYLOADS = join(import.meta.dirname, "../../../../test-fixtures/payloads");
const SHELLS = join(PAYLOADS, "transcript-sample.workers.jsonl");
const COMPACTED = join(PAYLOADS, "transcript-sample.workers-compact.jsonl");
const RESUMED = join(PAYLOADS, "transcript-sample.workers-resumed.jsonl");

const { write: transcript } = transcriptDir("carryover-workers-");

/** The first `count` lines of a captured transcript: what a hook reading it at that moment saw. */
function upTo(path: string, count: number): string {
  const lines = readFileSync(path, "utf8").split("\n").slice(0, count);
  return transcript(lines);
}

const states = (workers: Worker[]) => workers.map(({ kind, id, state }) => `${kind} ${id} ${state}`);

describe("workers in transcripts Claude Code 2.1.332 wrote", () => {
  it("follows background shells, a monitor and a cron from their calls to their ends", async () => {
    const { workers } = await scanTranscript(SHELLS, { lineNumbers: true });
    const tasks = "/tmp/claude-0/-home-user-proj/e5c7a7c4-4f3e-4d55-93e7-7dbd39659ef3/tasks";
    expect(workers).toEqual([
      expect.objectContaining({
        kind: "shell",
        id: "byy8okzph",
        description: "dev server",
        command: "sleep 9; echo served",
        state: "completed",
        background: true,
        line: 21,
        outputFile: `${tasks}/byy8okzph.output`,
        detail: 'Background command "dev server" completed (exit code 0)',
      }),
      expect.objectContaining({
        kind: "shell",
        id: "b35d0r3tg",
        state: "failed",
        detail: 'Background command "failing check" failed with exit code 3',
      }),
      expect.objectContaining({
        kind: "shell",
        id: "bapom6uin",
        state: "killed",
        detail: "Successfully stopped task: bapom6uin (sleep 60)",
      }),
      expect.objectContaining({
        kind: "monitor",
        id: "bu72ty1f2",
        command: "sleep 1; echo tick; sleep 3; echo end",
        state: "completed",
        line: 52,
      }),
      expect.objectContaining({
        kind: "cron",
        id: "f03a876f",
        description: "check the deploy",
        command: "*/7 * * * *",
        state: "scheduled",
      }),
    ]);
    expect(workers[0]!.endedAtMs! - workers[0]!.startedAtMs!).toBeGreaterThan(9_000);
  });

  it("says what was running at each moment a hook could read the file, as Claude Code's Stop list did", async () => {
    // The first Stop (line 67) came with background_tasks = the dev server and the ticker (stop.background-tasks.json).
    expect(states((await scanTranscript(upTo(SHELLS, 67))).workers)).toEqual([
      "shell byy8okzph running",
      "shell b35d0r3tg failed",
      "shell bapom6uin killed",
      "monitor bu72ty1f2 running",
      "cron f03a876f scheduled",
    ]);
    // Before the failing check's notification was queued (line 44), it was still running.
    expect(states((await scanTranscript(upTo(SHELLS, 43))).workers).slice(0, 2)).toEqual([
      "shell byy8okzph running",
      "shell b35d0r3tg running",
    ]);
  });

  it("follows a background and a foreground agent across a compaction and the task_status lines after", async () => {
    const atCompaction = await scanTranscript(upTo(COMPACTED, 41));
    expect(states(atCompaction.workers)).toEqual([
      "agent af0c370293e497c1d running",
      "agent a6acb9cb530a96844 completed",
      "shell buwpmc7qi running",
    ]);
    expect(atCompaction.workers[0]).toMatchObject({
      background: true,
      agentType: "general-purpose",
      description: "bg researcher",
    });
    expect(atCompaction.workers[1]).toMatchObject({
      background: false,
      agentType: "Explore",
      description: "quick look",
    });
    const after = await scanTranscript(COMPACTED);
    expect(states(after.workers)).toEqual([
      "agent af0c370293e497c1d completed",
      "agent a6acb9cb530a96844 completed",
      "shell buwpmc7qi completed",
    ]);
  });

  it("keeps a shell killed at /exit killed when the resumed process says it was stopped", async () => {
    const { workers } = await scanTranscript(RESUMED);
    expect(states(workers)).toEqual(["shell buouu4jip killed"]);
  });
});

describe("workers read from hand-made lines", () => {
  const notification = (taskId: string, callId: string, status: string, summary = "") =>
    `<task-notification>\n<task-id>${taskId}</task-id>\n<tool-use-id>${callId}</tool-use-id>\n` +
    `<output-file>/tmp/t/${taskId}.output</output-file>\n<status>${status}</status>\n` +
    `<summary>${summary}</summary>\n</task-notification>`;
  const queued = (text: string) => ({
    type: "queue-operation",
    operation: "enqueue",
    timestamp: "2026-11-29T18:00:00.000Z",
    content: text,
  });
  const bash = (id: string, command: string) =>
    call(id, "Bash", { command, description: command, run_in_background: true });
  const started = (id: string, taskId: string) =>
    result(
      id,
      `Command running in background with ID: ${taskId}. ` +
        `Output is being written to: /tmp/t/${taskId}.output. You will be notified`,
      false,
      {
        stdout: "",
        backgroundTaskId: taskId,
      },
    );

  it("reads a task notification wherever Claude Code puts it: queue-operation, queued_command, user line", async () => {
    const path = transcript([
      prompt("go"),
      bash("c1", "make a"),
      started("c1", "b1"),
      bash("c2", "make b"),
      started("c2", "b2"),
      bash("c3", "make c"),
      started("c3", "b3"),
      queued(notification("b1", "c1", "completed")),
      {
        type: "attachment",
        attachment: { type: "queued_command", prompt: notification("b2", "c2", "failed", "exit 1") },
        timestamp: "2026-11-29T18:00:01.000Z",
      },
      {
        type: "user",
        message: { role: "user", content: notification("b3", "c3", "killed") },
        timestamp: "2026-11-29T18:00:02.000Z",
      },
    ]);
    expect(states((await scanTranscript(path)).workers)).toEqual([
      "shell b1 completed",
      "shell b2 failed",
      "shell b3 killed",
    ]);
  });

  it("finds a worker call's result in a later chunk", async () => {
    const path = transcript([
      prompt("go"),
      bash("c1", "serve"),
      `{"type":"file-history-snapshot","pad":"${"x".repeat(2 * 1024 * 1024)}"}`,
      started("c1", "b1"),
    ]);
    expect((await scanTranscript(path)).workers).toEqual([
      expect.objectContaining({ id: "b1", state: "running", outputFile: "/tmp/t/b1.output" }),
    ]);
  });

  it("knows a foreground agent still in flight, one that never returned, and one that was refused", async () => {
    const path = transcript([
      prompt("go"),
      call("a1", "Agent", { description: "lost", subagent_type: "general-purpose", prompt: "x" }),
      prompt("continue"),
      call("a2", "Task", { description: "refused" }),
      result(
        "a2",
        "InputValidationError: Task failed due to the following issue:\nThe required parameter `prompt` is missing",
        true,
      ),
      call("a3", "Agent", { description: "in flight", prompt: "y" }),
    ]);
    const { workers } = await scanTranscript(path);
    expect(workers.map(({ id, description, state, background }) => [id, description, state, background])).toEqual([
      ["a1", "lost", "unknown", false],
      ["a3", "in flight", "running", false],
    ]);
  });

  it("ends shells by KillShell, KillBash and TaskStop, and reads BashOutput's and TaskOutput's status", async () => {
    const path = transcript([
      prompt("go"),
      bash("c1", "one"),
      started("c1", "bash_1"),
      bash("c2", "two"),
      started("c2", "bash_2"),
      bash("c3", "three"),
      started("c3", "b3"),
      bash("c4", "four"),
      started("c4", "b4"),
      call("k1", "KillShell", { shell_id: "bash_1" }),
      result("k1", "Successfully killed shell: bash_1 (one)", false, {
        message: "Successfully killed shell: bash_1 (one)",
        shell_id: "bash_1",
      }),
      call("k2", "BashOutput", { bash_id: "bash_2" }),
      result("k2", "<status>completed</status>", false, { shellId: "bash_2", status: "completed", exitCode: 0 }),
      call("k3", "TaskOutput", { task_id: "b3" }),
      result("k3", "<retrieval_status>success</retrieval_status>", false, {
        retrieval_status: "success",
        task: { task_id: "b3", status: "failed" },
      }),
      call("k4", "TaskStop", { task_id: "b4" }),
      result("k4", "Task b4 is not running", true),
    ]);
    expect(states((await scanTranscript(path)).workers)).toEqual([
      "shell bash_1 killed",
      "shell bash_2 completed",
      "shell b3 failed",
      "shell b4 running",
    ]);
  });

  it("follows crons: created, deleted, and gone from what Claude Code carried over a compaction", async () => {
    const path = transcript([
      prompt("go"),
      call("r1", "CronCreate", { cron: "0 9 * * *", prompt: "daily check", recurring: true }),
      result("r1", "Scheduled recurring job c1 (Every day)", false, { id: "c1", recurring: true, durable: false }),
      call("r2", "CronCreate", { cron: "5 14 3 12 *", prompt: "one shot", recurring: false }),
      result("r2", "Scheduled one-shot job c2", false, { id: "c2", recurring: false }),
      call("r3", "CronCreate", { cron: "*/5 * * * *", prompt: "often" }),
      result("r3", "Scheduled recurring job c3", false, { id: "c3" }),
      call("d1", "CronDelete", { id: "c1" }),
      result("d1", "Cancelled job c1", false, { id: "c1" }),
      {
        type: "attachment",
        attachment: { type: "session_cron_carry", tasks: [{ id: "c3", cron: "*/5 * * * *" }] },
        timestamp: "2099-01-01T00:00:00.000Z",
      },
    ]);
    expect(states((await scanTranscript(path)).workers)).toEqual([
      "cron c1 deleted",
      "cron c2 ended",
      "cron c3 scheduled",
    ]);
  });

  // Its call was before the part read.
  it("learns of a background task only Claude Code's task_status line names", async () => {
    const path = transcript([
      prompt("go"),
      bash("c1", "known"),
      started("c1", "b1"),
      {
        type: "attachment",
        attachment: {
          type: "task_status",
          taskId: "b9",
          taskType: "local_bash",
          description: "older",
          status: "running",
          outputFilePath: "/tmp/t/b9.output",
          shell: { command: "serve", kind: "bash" },
        },
        timestamp: "2026-11-29T18:00:00.000Z",
      },
    ]);
    expect((await scanTranscript(path)).workers).toEqual([
      expect.objectContaining({ id: "b1", state: "running" }),
      expect.objectContaining({
        kind: "shell",
        id: "b9",
        description: "older",
        command: "serve",
        state: "running",
        outputFile: "/tmp/t/b9.output",
      }),
    ]);
  });

  it("does not mistake a Bash run in the foreground, or a notification in tool output, for a worker", async () => {
    const path = transcript([
      prompt("go"),
      call("c1", "Bash", { command: "echo run_in_background", description: "plain" }),
      result("c1", notification("b1", "c1", "completed")),
    ]);
    expect((await scanTranscript(path)).workers).toEqual([]);
  });
});
