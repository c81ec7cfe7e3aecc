import { statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

// Claude Code 2.1.332 appends transcript lines from a write queue: a PreCompact fired inside a tool loop can start
// before the loop's last tool call is written (seen on a loaded machine: the changes log missed the last command).
const QUIET_MS = 200;
const MAX_WAIT_MS = 2_000;

/**
 * Resolves once the transcript has gone `QUIET_MS` without a change, or after `MAX_WAIT_MS` however busy it is.
 * A file that is missing or already quiet costs one stat.
 */
export async function transcriptSettled(path: string): Promise<void> {
  const deadline = Date.now() + MAX_WAIT_MS;
  for (;;) {
    const changedMs = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    const now = Date.now();
    if (changedMs === undefined || now - changedMs >= QUIET_MS || now >= deadline) return;
    await sleep(Math.min(QUIET_MS - (now - changedMs), deadline - now));
  }
}
