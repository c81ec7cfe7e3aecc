// A racer for the marker and compaction race tests. Its parent sends "<round> <startAtNs>" lines; for each
// it spins until startAtNs (so all racers act at the same instant), runs its operation on the shared
// state and answers "<round> <result>".
import { createInterface } from "node:readline";
import { appendLine } from "../src/fs/atomic.ts";
import { markCompacted, recordRecoveryDelivered, takePendingCompaction } from "../src/session/compaction.ts";
import { consumeMarker, createMarkerOnce } from "../src/session/markers.ts";
import { openSession } from "../src/session/session.ts";

// `target` is the marker name, or the file for "append".
const [operation, home, sessionId, target] = process.argv.slice(2) as [string, string, string, string];
const env = { HOME: home };
const HOUR_MS = 3_600_000;

// "won" when this racer got (or delivered) what is at stake in the round, "lost" otherwise.
const operations: Record<string, (round: number) => boolean> = {
  consume: () => consumeMarker(openSession(env, sessionId), target, { nowMs: Date.now() }) !== null,
  "create-once": () => createMarkerOnce(openSession(env, sessionId), target, { pid: process.pid }, Date.now()),
  // A recovery channel: delivers when it takes a pending compaction, then records the delivery.
  "take-and-deliver": () => {
    const session = openSession(env, sessionId);
    const taken = takePendingCompaction(session, Date.now(), HOUR_MS);
    if (taken && !taken.delivered) recordRecoveryDelivered(session, taken.marker.data.promptId, Date.now());
    return taken !== null && !taken.delivered;
  },
  // SessionStart(compact) in 2.1.332: it knows a compaction happened, delivers, records it.
  "deliver-at-session-start": (round) => {
    recordRecoveryDelivered(openSession(env, sessionId), `prompt-${round}`, Date.now());
    return true;
  },
  // 100 lines of 4 KiB, each one character repeated, so a line torn by another writer shows.
  append: (round) => {
    const char = String.fromCharCode(97 + (process.pid % 26));
    for (let i = 0; i < 100; i++) appendLine(target, `${process.pid} ${round} ${i} ${char.repeat(4096)}`);
    return true;
  },
  "post-compact": (round) => {
    markCompacted(openSession(env, sessionId), { trigger: "auto", promptId: `prompt-${round}` }, Date.now());
    return false;
  },
};

const run = operations[operation];
if (!run) throw new Error(`unknown operation ${operation}`);

createInterface({ input: process.stdin }).on("line", (line) => {
  const [round, startAt] = line.split(" ") as [string, string];
  // The monotonic clock is shared by every process on the machine; spinning on it (a timer would
  // add milliseconds of skew) starts all racers within microseconds of each other.
  const startAtNs = BigInt(startAt);
  while (process.hrtime.bigint() < startAtNs) {
    // spin
  }
  let result: string;
  try {
    result = run(Number(round)) ? "won" : "lost";
  } catch (error) {
    result = `error ${(error as Error).message.replace(/\s+/g, " ")}`;
  }
  process.stdout.write(`${round} ${result}\n`);
});
