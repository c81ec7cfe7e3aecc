import { spawn } from "node:child_process";
import { claudeBin } from "./claude-bin.ts";
import type { Sandbox } from "./sandbox.ts";

const DEFAULT_ALLOWED_TOOLS = ["Bash", "Write", "Edit", "Read"];

export interface PrintOptions {
  /** Session id to continue (`--resume`). */
  resume?: string;
  env?: Record<string, string>;
  /** Extra CLI arguments. */
  args?: string[];
  timeoutMs?: number;
  allowedTools?: string[];
  outputFormat?: "json" | "stream-json";
  /** Runs Claude Code as this uid (and gid) through setpriv, as a second user of the machine (needs root). */
  uid?: number;
}

export interface PrintResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** The final `type:"result"` object, when stdout had one. */
  json: Record<string, unknown> | undefined;
  /** Every stdout JSON line (stream-json) or the single result object (json). */
  events: Array<Record<string, unknown>>;
  result: string | undefined;
  sessionId: string | undefined;
  isError: boolean | undefined;
}

/**
 * Runs `claude -p` in the sandbox project with the prompt on stdin (so a prompt starting with `-` or a
 * slash command such as `/compact keep X` needs no quoting) and waits for it to exit.
 */
export async function runPrint(sandbox: Sandbox, prompt: string, options: PrintOptions = {}): Promise<PrintResult> {
  const format = options.outputFormat ?? "json";
  const args = [
    "-p",
    "--output-format",
    format,
    ...(format === "stream-json" ? ["--verbose"] : []),
    "--permission-mode",
    "default",
    ...(options.resume !== undefined ? ["--resume", options.resume] : []),
    ...(options.args ?? []),
    // Last: the option is variadic and would swallow the arguments after it.
    "--allowedTools",
    (options.allowedTools ?? DEFAULT_ALLOWED_TOOLS).join(","),
  ];
  const timeoutMs = options.timeoutMs ?? 60_000;
  const started = Date.now();
  const [command, commandArgs] =
    options.uid === undefined ? [claudeBin(), args] : ["setpriv", [...asUser(options.uid), claudeBin(), ...args]];
  const env = { ...sandbox.env, ...options.env };
  const child = spawn(command, commandArgs, { cwd: sandbox.project, env, stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  // A CLI that exits before reading its stdin must not crash the test process with EPIPE.
  child.stdin.on("error", () => {});
  child.stdin.end(prompt);

  const exitCode = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `claude -p timed out after ${timeoutMs} ms (prompt ${JSON.stringify(prompt.slice(0, 80))}); ` +
            `stderr: ${stderr.slice(-500)}`,
        ),
      );
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });

  const events = parseJsonLines(stdout);
  const json = [...events].reverse().find((event) => event.type === "result");
  return {
    exitCode,
    stdout,
    stderr,
    durationMs: Date.now() - started,
    json,
    events,
    result: typeof json?.result === "string" ? json.result : undefined,
    sessionId: typeof json?.session_id === "string" ? json.session_id : undefined,
    isError: typeof json?.is_error === "boolean" ? json.is_error : undefined,
  };
}

/** Manual compaction in print mode: `/compact [instructions]` as the prompt of a `--resume` run. */
export function runCompact(
  sandbox: Sandbox,
  sessionId: string,
  instructions?: string,
  options: PrintOptions = {},
): Promise<PrintResult> {
  const prompt = instructions ? `/compact ${instructions}` : "/compact";
  return runPrint(sandbox, prompt, { ...options, resume: sessionId });
}

/** Throws with stdout/stderr when the run did not exit 0 with a non-error result; returns the session id. */
export function expectSuccess(run: PrintResult): string {
  if (run.exitCode !== 0 || run.isError !== false || run.sessionId === undefined) {
    throw new Error(
      `claude -p failed: exit ${run.exitCode}, is_error ${run.isError}\n` +
        `stdout: ${run.stdout.slice(-1500)}\nstderr: ${run.stderr.slice(-1500)}`,
    );
  }
  return run.sessionId;
}

/** `setpriv` arguments that run the rest of a command line as `uid` (gid the same, no supplementary groups). */
export function asUser(uid: number): string[] {
  return [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--"];
}

function parseJsonLines(text: string): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed.startsWith("{")) continue;
    try {
      events.push(JSON.parse(trimmed) as Record<string, unknown>);
    } catch {
      // Not JSON: a plain-text line (e.g. a UserPromptSubmit block message) stays in `stdout`.
    }
  }
  return events;
}
