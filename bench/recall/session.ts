import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { claudeBin, type Sandbox } from "../../test-fixtures/e2e/index.ts";

interface SessionOptions {
  /** A new session with this id (`--session-id`), or an existing one to continue (`--resume`). */
  sessionId: string;
  resume?: boolean;
  env?: Record<string, string>;
  allowedTools: string[];
  turnTimeoutMs?: number;
}

/** The `type:"result"` event that ends a turn (stream-json output). */
export interface TurnResult {
  result?: string;
  is_error?: boolean;
  session_id?: string;
  [key: string]: unknown;
}

export interface ClaudeSession {
  /** Sends a user message: a prompt or a slash command. */
  send(text: string): void;
  /** How many events the CLI has printed so far: a turn's result comes after the count when its request arrived. */
  eventCount(): number;
  /** The first turn result printed after event `from`. */
  result(from: number): Promise<TurnResult>;
  /** The SDK's control request: the permission mode changes for the next turns, as Shift+Tab does in the TUI. */
  setPermissionMode(mode: "default" | "plan"): Promise<void>;
  /** Ends the process and everything it started (background shells, subagents' commands). */
  stop(): Promise<void>;
}

/**
 * One real `claude -p` process for a whole scripted session, turns sent as stream-json user messages: the
 * TUI's single long-lived process, so background shells and subagents keep running across turns and a
 * /compact runs where they run. Its own process group, so stop() ends what it started and nothing else.
 */
export function startSession(sandbox: Sandbox, options: SessionOptions): ClaudeSession {
  const args = [
    "-p",
    "--input-format",
    "stream-json",
    "--output-format",
    "stream-json",
    "--verbose",
    "--permission-mode",
    "default",
    ...(options.resume ? ["--resume", options.sessionId] : ["--session-id", options.sessionId]),
    // Last: the option is variadic.
    "--allowedTools",
    options.allowedTools.join(","),
  ];
  const child = spawn(claudeBin(), args, {
    cwd: sandbox.project,
    env: { ...sandbox.env, ...options.env },
    stdio: "pipe",
    detached: true,
  });
  const events: Array<Record<string, unknown>> = [];
  let pending = "";
  let stderr = "";
  let exited: string | null = null;
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
      const line = pending.slice(0, end).trim();
      pending = pending.slice(end + 1);
      if (line.startsWith("{")) events.push(JSON.parse(line) as Record<string, unknown>);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  child.stdin.on("error", () => {});
  const closed = new Promise<void>((resolve) => {
    child.on("close", (code, signal) => {
      exited = `exited ${code ?? signal}`;
      resolve();
    });
  });
  const timeoutMs = options.turnTimeoutMs ?? 90_000;
  let controlId = 0;

  const waitForEvent = async (from: number, what: string, test: (event: Record<string, unknown>) => boolean) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.slice(from).find(test);
      if (found) return found;
      if (exited !== null || Date.now() > deadline) {
        const why = exited ?? `no ${what} within ${timeoutMs} ms`;
        throw new Error(`claude ${why}; stderr: ${stderr.slice(-800) || "(empty)"}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const send = (message: Record<string, unknown>) => child.stdin.write(`${JSON.stringify(message)}\n`);

  return {
    send: (text) => send({ type: "user", message: { role: "user", content: text } }),
    eventCount: () => events.length,
    result: async (from) => (await waitForEvent(from, "turn result", (e) => e.type === "result")) as TurnResult,
    async setPermissionMode(mode) {
      const from = events.length;
      const id = `recall_${++controlId}`;
      send({ type: "control_request", request_id: id, request: { subtype: "set_permission_mode", mode } });
      const event = await waitForEvent(from, `answer to set_permission_mode ${mode}`, (e) => isControlResponse(e, id));
      const response = event.response as { subtype?: string; error?: string };
      if (response.subtype !== "success")
        throw new Error(`set_permission_mode ${mode} refused: ${response.error ?? "?"}`);
    },
    stop: () => stopGroup(child, closed),
  };
}

function isControlResponse(event: Record<string, unknown>, id: string): boolean {
  return (
    event.type === "control_response" && (event.response as { request_id?: string } | undefined)?.request_id === id
  );
}

async function stopGroup(child: ChildProcessWithoutNullStreams, closed: Promise<void>): Promise<void> {
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group is gone already.
    }
  };
  child.stdin.end();
  signalGroup("SIGTERM");
  const timer = setTimeout(() => signalGroup("SIGKILL"), 5_000);
  await closed;
  clearTimeout(timer);
  // A background shell may outlive the CLI in its group: end it too.
  signalGroup("SIGKILL");
}
