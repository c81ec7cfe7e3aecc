import { readJsonNoFollow, writeFileAtomic } from "../fs/atomic.ts";
import { joinPath } from "../fs/join-path.ts";
import type { Session, SessionPaths } from "./session.ts";

const STARTS_FILE = "compaction-starts.json";
// As many as the ledger keeps by default: older compactions are named by their boundary's time.
const MAX_STARTS = 50;
// So that the start of a compaction that never finished is not taken for a much later one's.
const MAX_SUMMARY_MS = 15 * 60_000;

/**
 * When each compaction PreCompact saw began, oldest first ([] when none was recorded). A compaction is named by
 * its start: PreCompact's output says that time, in the conversation and in the summary prompt, while its
 * boundary, ledger entry and PostCompact come after the summary, which can end minutes later.
 */
export function readCompactionStarts(session: SessionPaths): number[] {
  const starts = readJsonNoFollow(joinPath(session.dir, STARTS_FILE));
  return Array.isArray(starts) ? starts.filter((atMs): atMs is number => typeof atMs === "number") : [];
}

/** Adds a PreCompact start to the session's list, which keeps the latest MAX_STARTS. */
export function recordCompactionStart(session: Session, atMs: number): void {
  const starts = [...readCompactionStarts(session), atMs].slice(-MAX_STARTS);
  writeFileAtomic(joinPath(session.ensureDir(), STARTS_FILE), JSON.stringify(starts));
}

/**
 * The start of the compaction recorded at `recordedAtMs` (its boundary, its PostCompact): the latest recorded start
 * after the previous compaction and at most MAX_SUMMARY_MS before it; else `recordedAtMs` itself.
 */
export function compactionStartBefore(
  recordedAtMs: number,
  previousAtMs: number | null,
  starts: readonly number[],
): number {
  let best = recordedAtMs;
  for (const start of starts) {
    const after = previousAtMs === null || start > previousAtMs;
    if (after && start <= recordedAtMs && recordedAtMs - start <= MAX_SUMMARY_MS) best = start;
  }
  return best;
}
