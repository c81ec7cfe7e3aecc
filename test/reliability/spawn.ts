import { spawn } from "node:child_process";
import { watch } from "node:fs";

export interface ProcessRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Still running at the deadline (or at the change it was to be killed at), so this helper killed it. */
  hung: boolean;
  durationMs: number;
}

export interface SpawnOptions {
  env: Record<string, string>;
  cwd: string;
  args?: readonly string[];
  /** Written to the child's stdin, which is then closed; null starts it with stdin closed (fd 0 not open). */
  stdin: Buffer | string | null;
  deadlineMs: number;
  /** SIGKILL at the `count`th change the child makes in `dir` (a temp file, a rename): inside its writes. */
  killAtChange?: { dir: string; count: number };
}

/** Runs `node file …` as Claude Code runs a hook: stdin written and closed, stdout and stderr collected. */
export function runFile(
  file: string,
  { env, cwd, args = [], stdin, deadlineMs, killAtChange }: SpawnOptions,
): Promise<ProcessRun> {
  const startMs = performance.now();
  // `<&-` closes fd 0 before node starts, which a pipe or /dev/null cannot show.
  const child =
    stdin === null
      ? spawn("/bin/sh", ["-c", 'exec "$0" "$@" <&-', process.execPath, file, ...args], {
          env,
          cwd,
          stdio: ["ignore", "pipe", "pipe"],
        })
      : spawn(process.execPath, [file, ...args], { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
  if (stdin !== null) {
    // A hook may exit before reading everything (it refuses oversized input): that is not the test's error.
    child.stdin!.on("error", () => {});
    child.stdin!.end(stdin);
  }
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout!.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));
  let hung = false;
  const killer = setTimeout(() => {
    hung = true;
    child.kill("SIGKILL");
  }, deadlineMs);
  let changes = 0;
  const watcher = killAtChange
    ? watch(killAtChange.dir, () => {
        if (++changes !== killAtChange.count) return;
        hung = true;
        child.kill("SIGKILL");
      })
    : undefined;
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      watcher?.close();
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
        hung,
        durationMs: performance.now() - startMs,
      });
    });
  });
}

/** Runs `task` over `items` with at most `limit` in flight; results in input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
