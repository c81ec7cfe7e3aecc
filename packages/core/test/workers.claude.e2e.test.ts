// The workers as the real Claude Code 2.1.332 records them, read back from the transcript at the moment a hook runs
// and held against the lists Claude Code itself hands that hook (Stop's and SubagentStop's background_tasks and
// session_crons). With CARRYOVER_CAPTURE_DIR set, the run also writes the captures kept in test-fixtures/payloads.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  AUTO_COMPACT_INPUT_TOKENS,
  autoCompactEnv,
  createSandbox,
  expectSuccess,
  mockScript,
  type ProbePayload,
  probeHooks,
  projectSlug,
  readProbeLog,
  releaseAtStop,
  runPrint,
  type Sandbox,
  startTui,
  untilReleased,
  waitFor,
} from "../../../test-fixtures/e2e/index.ts";
import type { Worker } from "../src/transcript/facts.ts";
import { scanTranscript } from "../src/transcript/scan.ts";

const EVENTS = ["PostToolUse", "PreCompact", "SubagentStop", "Stop"];
const TOOLS = ["Bash", "Agent", "ToolSearch", "TaskStop", "Monitor", "CronCreate"];

interface BackgroundTask {
  id: string;
  type: string;
  status: string;
  description: string;
  command?: string;
}

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

async function run(
  steps: unknown[],
  env: Record<string, string> = {},
): Promise<{ sandbox: Sandbox; payloads: ProbePayload[]; sessionId: string }> {
  // Workers wait for the first Stop's hooks: the lists Claude Code hands them hold them as running.
  const hooks = probeHooks(EVENTS) as Record<string, unknown[]>;
  hooks.Stop = [...hooks.Stop!, { hooks: [releaseAtStop(2)] }];
  sandbox = await createSandbox({ settings: { hooks } });
  const copies = join(sandbox.root, "copies");
  mkdirSync(copies);
  // Claude Code keeps background output under $TMPDIR/claude-<uid>/: inside the sandbox, removed with it.
  mkdirSync(join(sandbox.root, "tmp"));
  const result = await runPrint(sandbox, `work ${mockScript(steps as never)}`, {
    env: { PROBE_TRANSCRIPTS: copies, TMPDIR: join(sandbox.root, "tmp"), ...env },
    allowedTools: TOOLS,
    timeoutMs: 90_000,
  });
  return { sandbox, payloads: readProbeLog(sandbox.probeLog), sessionId: expectSuccess(result) };
}

/** What Claude Code's list says is running, in the transcript reading's terms. */
function claudeRunning(tasks: BackgroundTask[]) {
  const kinds: Record<string, string> = { shell: "shell", monitor: "monitor", subagent: "agent" };
  return tasks
    .filter((task) => task.status === "running")
    .map((task) => ({ kind: kinds[task.type] ?? task.type, id: task.id, description: task.description }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Background workers still running (a foreground agent is not a background task: it is the call in progress). */
function running(workers: Worker[]) {
  return workers
    .filter((worker) => worker.state === "running" && worker.background)
    .map(({ kind, id, description }) => ({ kind, id, description }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Every hook call's list against the transcript as that hook could read it. */
async function expectAgreement(payloads: ProbePayload[]): Promise<number> {
  let compared = 0;
  for (const payload of payloads) {
    if (!Array.isArray(payload.background_tasks) || typeof payload.probe_transcript_copy !== "string") continue;
    const facts = await scanTranscript(payload.probe_transcript_copy);
    const what = `${payload.hook_event_name} ${String(payload.agent_type ?? "")} (${payload.probe_transcript_copy})`;
    expect(running(facts.workers), what).toEqual(claudeRunning(payload.background_tasks as BackgroundTask[]));
    const crons = (payload.session_crons as Array<{ id: string }>).map((cron) => cron.id).sort();
    expect(
      facts.workers
        .filter((worker) => worker.kind === "cron" && worker.state === "scheduled")
        .map((worker) => worker.id)
        .sort(),
      what,
    ).toEqual(crons);
    compared += 1;
  }
  return compared;
}

/**
 * The hook calls up to the first Stop, whose hooks release the workers. Until then nothing ends near a hook, so the
 * list Claude Code hands it and the transcript the probe copies a moment later hold the same state; once released,
 * the workers end together and a hook's list and its copy can straddle an end.
 */
function beforeRelease(payloads: ProbePayload[]): ProbePayload[] {
  const stop = payloads.findIndex((payload) => payload.hook_event_name === "Stop");
  return stop === -1 ? payloads : payloads.slice(0, stop + 1);
}

describe("workers as Claude Code 2.1.332 records them", () => {
  test("background shells, a monitor and a cron: at each Stop the transcript says what Stop's lists say", async () => {
    const { sandbox, payloads, sessionId } = await run([
      {
        tool: "Bash",
        input: { command: untilReleased("echo served"), description: "dev server", run_in_background: true },
      },
      { tool: "Bash", input: { command: "sleep 1; exit 3", description: "failing check", run_in_background: true } },
      { tool: "Bash", input: { command: "sleep 60", description: "to be stopped", run_in_background: true } },
      { tool: "ToolSearch", input: { query: "select:TaskStop,Monitor,CronCreate" } },
      { tool: "TaskStop", input: { task_id: "{{last:with ID: (\\w+)}}" } },
      {
        tool: "Monitor",
        input: {
          command: `sleep 1; echo tick; ${untilReleased("echo end")}`,
          description: "ticker",
          timeout_ms: 60_000,
        },
      },
      { tool: "CronCreate", input: { cron: "*/7 * * * *", prompt: "check the deploy", recurring: true } },
      { tool: "Bash", input: { command: "sleep 2", description: "wait" } },
      { text: "done" },
    ]);
    const stops = payloads.filter((payload) => payload.hook_event_name === "Stop");
    expect(
      claudeRunning(stops[0]!.background_tasks as BackgroundTask[])
        .map((task) => task.description)
        .sort(),
    ).toEqual(["dev server", "ticker"]);
    expect(stops[0]!.session_crons).toEqual([
      { id: expect.any(String), schedule: "*/7 * * * *", recurring: true, prompt: "check the deploy" },
    ]);
    expect(await expectAgreement(beforeRelease(payloads))).toBe(1);

    const final = await scanTranscript(sandbox.transcriptPath(sessionId), { lineNumbers: true });
    expect(final.workers.map(({ kind, description, state }) => [kind, description, state])).toEqual([
      ["shell", "dev server", "completed"],
      ["shell", "failing check", "failed"],
      ["shell", "to be stopped", "killed"],
      ["monitor", "ticker", "completed"],
      ["cron", "check the deploy", "scheduled"],
    ]);
    capture(sandbox, sessionId, "workers", {
      "stop.background-tasks.json": stops[0],
      ...postToolUse(payloads, {
        Bash: "bash-background",
        TaskStop: "task-stop",
        Monitor: "monitor",
        CronCreate: "cron-create",
      }),
    });
  });

  test("subagents in the background and not, and a shell, across an auto-compaction inside a tool loop", async () => {
    const researcher = mockScript([
      { tool: "Bash", input: { command: untilReleased("echo found") } },
      { text: "research finished" },
    ]);
    const { sandbox, payloads, sessionId } = await run(
      [
        {
          tool: "Agent",
          input: { description: "bg researcher", prompt: `research ${researcher}`, subagent_type: "general-purpose" },
        },
        {
          tool: "Agent",
          input: {
            description: "quick look",
            prompt: `look ${mockScript([{ text: "looked" }])}`,
            subagent_type: "Explore",
            run_in_background: false,
          },
        },
        {
          tool: "Bash",
          input: { command: untilReleased("echo served"), description: "dev server", run_in_background: true },
        },
        { tool: "Bash", input: { command: "echo b" } },
        { tool: "Bash", input: { command: "echo c" }, input_tokens: AUTO_COMPACT_INPUT_TOKENS },
        { tool: "Bash", input: { command: "echo d" } },
        { text: "finished" },
      ],
      autoCompactEnv,
    );
    const fork = payloads.find((payload) => payload.hook_event_name === "SubagentStop" && payload.agent_type === "");
    // The compaction runs as a fork whose SubagentStop comes after PreCompact: the list as the compaction happens.
    expect(
      claudeRunning(fork!.background_tasks as BackgroundTask[])
        .map((task) => task.description)
        .sort(),
    ).toEqual(["bg researcher", "dev server"]);
    const preCompact = payloads.find((payload) => payload.hook_event_name === "PreCompact")!;
    const atCompaction = await scanTranscript(preCompact.probe_transcript_copy as string);
    expect(running(atCompaction.workers)).toEqual(claudeRunning(fork!.background_tasks as BackgroundTask[]));
    expect(await expectAgreement(beforeRelease(payloads))).toBeGreaterThanOrEqual(3);

    const final = await scanTranscript(sandbox.transcriptPath(sessionId));
    expect(
      final.workers.map(({ kind, description, state, background, agentType }) => [
        kind,
        description,
        state,
        background,
        agentType,
      ]),
    ).toEqual([
      ["agent", "bg researcher", "completed", true, "general-purpose"],
      ["agent", "quick look", "completed", false, "Explore"],
      ["shell", "dev server", "completed", true, undefined],
    ]);
    const agents = final.workers.filter((worker) => worker.kind === "agent");
    for (const agent of agents)
      expect(agent.transcript).toBe(
        join(sandbox.transcriptPath(sessionId).replace(/\.jsonl$/, ""), "subagents", `agent-${agent.id}.jsonl`),
      );
    const ownStop = payloads.find(
      (payload) => payload.hook_event_name === "SubagentStop" && payload.agent_type === "general-purpose",
    );
    capture(sandbox, sessionId, "workers-compact", {
      "subagent-stop.compaction.background-tasks.json": fork,
      "subagent-stop.background-agent.json": ownStop,
      ...postToolUse(payloads, { Agent: "agent-async" }),
    });
  });
});

describe("workers of a session that ended and was resumed", () => {
  test("a shell stopped at /exit is never reported running again, by the transcript or by Claude Code", async () => {
    sandbox = await createSandbox({ settings: { hooks: probeHooks(EVENTS), permissions: { allow: ["Bash"] } } });
    const copies = join(sandbox.root, "copies");
    mkdirSync(copies);
    mkdirSync(join(sandbox.root, "tmp"));
    const env = { PROBE_TRANSCRIPTS: copies, TMPDIR: join(sandbox.root, "tmp"), ...autoCompactEnv };
    const tui = await startTui(sandbox, { env });
    const start = mockScript([
      { tool: "Bash", input: { command: "sleep 300", description: "long server", run_in_background: true } },
      { text: "started" },
    ]);
    await tui.submit(`start it ${start}`);
    await tui.waitForScreen(/1 shell still running/);
    const { probeLog } = sandbox;
    const stop = await waitFor(() => readProbeLog(probeLog).find((payload) => payload.hook_event_name === "Stop"), {
      description: "the first Stop",
    });
    const sessionId = stop.session_id as string;
    const transcript = sandbox.transcriptPath(sessionId);
    const listed = claudeRunning(stop.background_tasks as BackgroundTask[]);
    expect(listed.map((task) => task.description)).toEqual(["long server"]);
    const taskId = listed[0]!.id;
    // 2.1.332 may run Stop before it writes the shell's result line, which names the shell by its task id: Stop's
    // copy then names it by its call. The shell runs until /exit, so the transcript once that line is in holds the
    // state Stop's list describes; Stop's list is held against a copy taken then.
    await waitFor(() => (namesTask(transcript, taskId) ? true : undefined), {
      description: `the result line naming ${taskId}`,
    });
    const atStop = join(sandbox.root, "stop-with-result.jsonl");
    copyFileSync(transcript, atStop);
    expect(await expectAgreement([{ ...stop, probe_transcript_copy: atStop }])).toBe(1);
    await tui.send("/exit");
    // 2.1.332 asks: "Exit and stop tasks" (the default), "Move to background and exit", "Stay".
    await tui.waitForScreen(/Exit and stop tasks/);
    tui.sendKeys("Enter");
    await tui.waitForScreen(/Resume this session with/, { timeoutMs: 20_000 });
    await tui.stop();
    // 2.1.332 records the kill (`<status>killed</status>`) only when it gets there before it exits: on a busy
    // machine it often does not. Then the resume's `stopped` is all the transcript has.
    const killed = readFileSync(sandbox.transcriptPath(sessionId), "utf8").includes("<status>killed</status>");

    const steps = [
      { tool: "Bash", input: { command: "echo a" } },
      { tool: "Bash", input: { command: "echo c" }, input_tokens: AUTO_COMPACT_INPUT_TOKENS },
      { text: "done" },
    ];
    expectSuccess(
      await runPrint(sandbox, `go on ${mockScript(steps)}`, { resume: sessionId, env, allowedTools: ["Bash"] }),
    );
    const payloads = readProbeLog(sandbox.probeLog);
    const resumed = payloads.slice(payloads.findIndex((payload) => payload.hook_event_name === "Stop") + 1);
    const fork = resumed.find((payload) => payload.hook_event_name === "SubagentStop" && payload.agent_type === "");
    expect(fork!.background_tasks).toEqual([]);
    expect(await expectAgreement(resumed)).toBeGreaterThanOrEqual(2);
    const final = await scanTranscript(sandbox.transcriptPath(sessionId));
    const ended = killed ? "killed" : "stopped";
    expect(final.workers.map(({ description, state }) => [description, state])).toEqual([["long server", ended]]);
    // On resume 2.1.332 also says it "didn't finish before the previous session ended": a recorded kill stays
    // what happened.
    expect(readFileSync(sandbox.transcriptPath(sessionId), "utf8")).toContain("<status>stopped</status>");
    capture(sandbox, sessionId, "workers-resumed", {});
  });
});

/** Whether the transcript holds the result line of the background shell Claude Code calls `taskId`. */
function namesTask(transcript: string, taskId: string): boolean {
  // The last piece after a newline may be a line Claude Code is still writing.
  return readFileSync(transcript, "utf8")
    .split("\n")
    .slice(0, -1)
    .some((line) => line.includes(taskId) && JSON.parse(line).toolUseResult?.backgroundTaskId === taskId);
}

/** The first PostToolUse of each tool (the async Agent: the one launched in the background). */
function postToolUse(
  payloads: ProbePayload[],
  names: Record<string, string>,
): Record<string, ProbePayload | undefined> {
  return Object.fromEntries(
    Object.entries(names).map(([tool, name]) => [
      `post-tool-use.${name}.json`,
      payloads.find(
        (payload) =>
          payload.hook_event_name === "PostToolUse" &&
          payload.tool_name === tool &&
          (tool !== "Bash" || (payload.tool_input as { run_in_background?: boolean }).run_in_background === true),
      ),
    ]),
  );
}

/** With CARRYOVER_CAPTURE_DIR: the payloads and the transcript, normalised as test-fixtures/payloads/README.md says. */
function capture(
  sandbox: Sandbox,
  sessionId: string,
  name: string,
  files: Record<string, ProbePayload | undefined>,
): void {
  const dir = process.env.CARRYOVER_CAPTURE_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const normalise = (text: string) =>
    text
      .replaceAll(join(sandbox.root, "tmp"), "/tmp")
      .replaceAll(sandbox.home, "/home/user")
      .replaceAll(sandbox.project, "/home/user/proj")
      .replaceAll(projectSlug(sandbox.project), "-home-user-proj")
      .replaceAll(sandbox.logDir, "/home/user/e2e-log");
  for (const [file, payload] of Object.entries(files)) {
    if (!payload) continue;
    const { probe_transcript_copy: _copy, ...kept } = payload;
    writeFileSync(join(dir, file), `${normalise(JSON.stringify(kept, null, 2))}\n`);
  }
  const lines = readFileSync(sandbox.transcriptPath(sessionId), "utf8").split("\n").filter(Boolean);
  writeFileSync(
    join(dir, `transcript-sample.${name}.jsonl`),
    `${lines.map((line) => normalise(JSON.stringify(trim(JSON.parse(line))))).join("\n")}\n`,
  );
}

const MAX_STRING_CHARS = 1_000;

function trim(value: unknown): unknown {
  if (typeof value === "string")
    return value.length > MAX_STRING_CHARS
      ? `${value.slice(0, MAX_STRING_CHARS)}…[+${value.length - MAX_STRING_CHARS} chars]`
      : value;
  if (Array.isArray(value)) return value.map(trim);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trim(item)]));
  return value;
}
