import type * as ChildProcess from "node:child_process";
import type { Env } from "@carryover/core";

export type ChainOutcome = { lines: string[] } | { problem: string };

export interface ChainOptions {
  timeoutMs: number;
  env: Env;
}

// A status line is one to a few rows; more than this is not a status line.
const MAX_OUTPUT_BYTES = 64 * 1024;

// Loaded only when chaining: node:child_process pulls in net, dgram and the streams, a third of Node's
// start-up time again.
function childProcess(): typeof ChildProcess {
  return process.getBuiltinModule("node:child_process");
}

// What the executable's sh prelude took out of Node's environment (packages/build), and kept for this command.
const HANDED_BACK = ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS"];

/** The environment as Claude Code gave it to the status line, before the prelude. */
function userEnv(env: Env): Env {
  const restored: Record<string, string | undefined> = { ...env };
  for (const name of HANDED_BACK) {
    const kept = restored[`CARRYOVER_USER_${name}`];
    delete restored[`CARRYOVER_USER_${name}`];
    if (kept !== undefined) restored[name] = kept;
  }
  return restored;
}

/**
 * Runs the user's own status line command through `/bin/sh -c` with our stdin, as Claude Code would.
 * It runs in its own process group so a timeout kills everything it started. Like Claude Code 2.1.332,
 * a non-zero exit discards its output.
 */
export async function runChained(command: string, stdinText: string, { timeoutMs, env }: ChainOptions): Promise<ChainOutcome> {
  const { spawn } = childProcess();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: ChainOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const child = spawn("/bin/sh", ["-c", command], { env: userEnv(env), stdio: ["pipe", "pipe", "ignore"], detached: true });
    const chunks: Buffer[] = [];
    let bytes = 0;
    const timer = setTimeout(() => {
      killGroup(child.pid);
      finish({ problem: `chainCommand did not finish within ${timeoutMs} ms; killed` });
    }, timeoutMs);
    child.on("error", (error) => finish({ problem: `chainCommand could not start: ${error.message}` }));
    child.stdout.on("data", (chunk: Buffer) => {
      if (bytes < MAX_OUTPUT_BYTES) chunks.push(chunk);
      bytes += chunk.length;
    });
    child.on("close", (code, signal) => {
      if (code !== 0) return finish({ problem: `chainCommand exited with ${signal ?? code}; its output is not shown` });
      finish({ lines: outputLines(Buffer.concat(chunks).subarray(0, MAX_OUTPUT_BYTES).toString("utf8")) });
    });
    // A command that never reads its stdin closes the pipe early (EPIPE): not an error.
    child.stdin.on("error", () => {});
    child.stdin.end(stdinText);
  });
}

function outputLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  while (lines.length > 0 && lines.at(-1)!.trim() === "") lines.pop();
  return lines;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}
