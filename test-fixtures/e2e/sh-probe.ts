import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let fakeNodeDir: string | undefined;

/** A dir whose `node` only says it was started: what a prelude that did not decide reaches. */
function fakeNode(): string {
  if (!fakeNodeDir) {
    fakeNodeDir = mkdtempSync(join(tmpdir(), "carryover-sh-probe-"));
    writeFileSync(join(fakeNodeDir, "node"), "#!/bin/sh\necho NODE-STARTED\n", { mode: 0o755 });
  }
  return fakeNodeDir;
}

/**
 * What a built executable's sh prelude prints when it decides `event` by itself (before Node), run as Claude Code
 * runs it (`/bin/sh <file> <event>`) in `env`, `input` on stdin; null when it left the prompt to Node. `path`
 * goes first on PATH (a dir with another awk, say); `systemDirs: false` leaves /usr/bin and /bin off it; `trace`
 * names a file for `strace -f` of the files opened, read and closed.
 */
export function shOutput(
  executable: string,
  event: string,
  env: Record<string, string>,
  options: { input?: string; path?: string; systemDirs?: boolean; trace?: string } = {},
): string | null {
  const system = options.systemDirs === false ? [] : ["/usr/bin", "/bin"];
  const dirs = [...(options.path ? [options.path] : []), fakeNode(), ...system];
  const sh = [executable, event];
  const [command, args] = options.trace
    ? ["strace", ["-f", "-qq", "-e", "trace=openat,read,close", "-o", options.trace, "/bin/sh", ...sh]]
    : ["/bin/sh", sh];
  const run = spawnSync(command, args, {
    env: { ...env, PATH: dirs.join(":") },
    input: options.input ?? "{}",
    encoding: "utf8",
  });
  // A prelude that decides exits without reading its stdin, as Claude Code lets it: EPIPE is no failure.
  const error = run.error as NodeJS.ErrnoException | undefined;
  if (error && error.code !== "EPIPE") throw new Error(`${executable} ${event}: ${error.message}`);
  if (run.status !== 0) throw new Error(`${executable} ${event}: exit ${run.status}: ${run.stderr}`);
  if (run.stderr !== "") throw new Error(`${executable} ${event}: stderr ${JSON.stringify(run.stderr)}`);
  if (run.stdout === "NODE-STARTED\n") return null;
  if (run.stdout.includes("NODE-STARTED")) throw new Error(`${executable} ${event}: printed, then started Node`);
  return run.stdout;
}

/**
 * Whether the prelude decides `event` by itself with nothing to do (exit before Node, printing nothing). Hooks'
 * agreement tests hold this against the hook's Node probe on the same states: where sh decides, the Node probe
 * must find nothing to do too.
 */
export function shDecides(executable: string, event: string, env: Record<string, string>): boolean {
  const output = shOutput(executable, event, env);
  if (output === null) return false;
  if (output === "") return true;
  throw new Error(`${executable} ${event}: printed ${JSON.stringify(output)}`);
}
