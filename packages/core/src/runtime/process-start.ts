import { readFileSync } from "node:fs";

let startedMs: number | undefined;

/**
 * When this process started, in ms on a clock that never goes back and is one for all processes of the machine:
 * Linux's start time in /proc (clock ticks since boot, taken by the kernel at fork), else the monotonic clock
 * minus the process's uptime. Orders this process against another that recorded its own, which wall clocks cannot.
 */
export function processStartMs(): number {
  startedMs ??= procStartMs() ?? Number(process.hrtime.bigint() / 1_000_000n) - process.uptime() * 1000;
  return startedMs;
}

// USER_HZ, what /proc counts in: 100 on every architecture Linux runs Node on.
const MS_PER_TICK = 10;

function procStartMs(): number | null {
  let stat: string;
  try {
    stat = readFileSync("/proc/self/stat", "latin1");
  } catch {
    return null;
  }
  // The command name (field 2) can hold spaces and parentheses: fields are counted after its last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[19]);
  return Number.isFinite(ticks) ? ticks * MS_PER_TICK : null;
}
