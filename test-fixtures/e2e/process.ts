import { readFileSync } from "node:fs";

/** True while `pid` runs; a zombie (killed, not yet reaped, e.g. after its tmux server died) counts as gone. */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !/^\d+ \(.*\) Z/.test(readProcStat(pid));
}

function readProcStat(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return "";
  }
}
