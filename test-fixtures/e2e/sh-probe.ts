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
 * Whether a built executable's sh prelude decides `event` by itself ("nothing to do": exit before Node), run
 * as Claude Code runs it (`/bin/sh <file> <event>`) in `env`. Hooks' agreement tests hold this against the
 * hook's Node probe on the same states: where sh decides, the Node probe must find nothing to do too.
 */
export function shDecides(executable: string, event: string, env: Record<string, string>): boolean {
  const run = spawnSync("/bin/sh", [executable, event], {
    env: { ...env, PATH: `${fakeNode()}:/usr/bin:/bin` },
    input: "{}",
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`${executable} ${event}: exit ${run.status}: ${run.stderr}`);
  if (run.stdout === "") return true;
  if (run.stdout === "NODE-STARTED\n") return false;
  throw new Error(`${executable} ${event}: printed ${JSON.stringify(run.stdout)}`);
}
