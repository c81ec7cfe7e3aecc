import type * as ChildProcess from "node:child_process";
import { closeSync, constants, fstatSync, openSync, readSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { type Env, errorMessage, tmpDir } from "@carryover/core";

export type ChainOutcome = { lines: string[] } | { problem: string };

export interface ChainOptions {
  timeoutMs: number;
  env: Env;
}

// A status line is one to a few rows; more than this is not a status line.
const MAX_OUTPUT_BYTES = 64 * 1024;

// Loaded only when chaining: node:child_process pulls in net, dgram and the streams, which a render that
// chains nothing would pay for at every start.
function childProcess(): typeof ChildProcess {
  return process.getBuiltinModule("node:child_process");
}

// What the executable's sh prelude took out of Node's environment (packages/build), and kept for this command.
const HANDED_BACK = ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "NODE_COMPILE_CACHE"];
// Set by the prelude beside the compile cache it gave our Node.
const OUR_COMPILE_CACHE = "CARRYOVER_NODE_COMPILE_CACHE";

/** The environment as Claude Code gave it to the status line, before the prelude. */
function userEnv(env: Env): Env {
  const restored: Record<string, string | undefined> = { ...env };
  if (restored[OUR_COMPILE_CACHE] !== undefined && restored.NODE_COMPILE_CACHE === restored[OUR_COMPILE_CACHE])
    delete restored.NODE_COMPILE_CACHE;
  delete restored[OUR_COMPILE_CACHE];
  for (const name of HANDED_BACK) {
    const kept = restored[`CARRYOVER_USER_${name}`];
    delete restored[`CARRYOVER_USER_${name}`];
    if (kept !== undefined) restored[name] = kept;
  }
  return restored;
}

/**
 * Runs the user's own status line command through `/bin/sh -c` with our stdin, as Claude Code would, and takes
 * its output when the shell exits. Like Claude Code 2.1.332 (observed with `( refresh ) & echo line`): a job it
 * leaves in the background does not hold the line up, runs on, and what it prints later is not shown. Its stdout
 * is a file with no name, not a pipe: the line does not wait for the job to close it, and the job's later writes
 * land there instead of breaking on a closed pipe. In its own process group, so a timeout kills everything it
 * started. A non-zero exit discards the output, as Claude Code does.
 */
export async function runChained(
  command: string,
  stdinText: string,
  { timeoutMs, env }: ChainOptions,
): Promise<ChainOutcome> {
  const { spawn } = childProcess();
  let output: number;
  try {
    output = anonymousFile(tmpDir(env));
  } catch (error) {
    return { problem: `chainCommand not run: no file for its output (${errorMessage(error)})` };
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: ChainOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      closeSync(output);
      resolve(outcome);
    };
    const child = spawn("/bin/sh", ["-c", command], {
      env: userEnv(env),
      stdio: ["pipe", output, "ignore"],
      detached: true,
    });
    const timer = setTimeout(() => {
      killGroup(child.pid);
      finish({ problem: `chainCommand did not finish within ${timeoutMs} ms; killed` });
    }, timeoutMs);
    child.on("error", (error) => finish({ problem: `chainCommand could not start: ${error.message}` }));
    child.on("exit", (code, signal) => {
      if (code !== 0) return finish({ problem: `chainCommand exited with ${signal ?? code}; its output is not shown` });
      finish({ lines: outputLines(readHead(output)) });
    });
    // A command that never reads its stdin closes the pipe early (EPIPE): not an error.
    child.stdin!.on("error", () => {});
    child.stdin!.end(stdinText);
  });
}

// Linux's O_TMPFILE (include/uapi/asm-generic/fcntl.h: __O_TMPFILE | O_DIRECTORY): a file that never has a
// name, so nothing in a shared /tmp can be planted at it. Node does not export the constant.
const O_TMPFILE = 0o20200000;

function anonymousFile(dir: string): number {
  const { O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
  if (process.platform === "linux") {
    try {
      return openSync(dir, O_RDWR | O_TMPFILE, 0o600);
    } catch {
      // a filesystem without O_TMPFILE support: named and unlinked at once below
    }
  }
  const path = join(dir, `carryover-chain-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const fd = openSync(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  unlinkSync(path);
  return fd;
}

function readHead(fd: number): string {
  const buffer = Buffer.alloc(Math.min(fstatSync(fd).size, MAX_OUTPUT_BYTES));
  const bytes = buffer.length > 0 ? readSync(fd, buffer, 0, buffer.length, 0) : 0;
  return buffer.subarray(0, bytes).toString("utf8");
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
