import { type StdioOptions, spawn } from "node:child_process";

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the child outlived `killAfterMs` and this helper killed it. */
  killedByTest: boolean;
}

export interface SpawnOptions {
  env: Record<string, string | undefined>;
  args?: string[];
  /** Written to a pipe that is then closed; a number is an fd to inherit. */
  stdin?: string | Buffer | number | "ignore";
  /** Kills the child after this long so a hung child fails the test instead of stalling the run. */
  killAfterMs?: number;
}

/** Runs `node file` and collects its exit, stdout and stderr. */
export function runNode(
  file: string,
  { env, args = [], stdin = "", killAfterMs = 15_000 }: SpawnOptions,
): Promise<Exit> {
  const stdinOption = typeof stdin === "number" ? stdin : stdin === "ignore" ? "ignore" : "pipe";
  const stdio: StdioOptions = [stdinOption, "pipe", "pipe"];
  const child = spawn(process.execPath, [file, ...args], { env, stdio });
  if (stdinOption === "pipe") child.stdin!.end(stdin as string | Buffer);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout!.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));
  let killedByTest = false;
  const killer = setTimeout(() => {
    killedByTest = true;
    child.kill("SIGKILL");
  }, killAfterMs);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      child.stdin?.destroy();
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
        killedByTest,
      });
    });
  });
}
