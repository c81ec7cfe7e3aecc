import type { Env } from "../env.ts";
import { readJsonNoFollow, writeFileAtomic } from "../fs/atomic.ts";
import { isSameCompaction } from "./compaction.ts";
import { type LastCompaction, loadLastCompaction } from "./last-compaction.ts";
import { compactStateCompanions, compactStatePath } from "./paths.ts";
import { sessionPaths } from "./session.ts";

/**
 * Where a compact-prep state stands against one compaction: saved after it, between the one before and it, or
 * before the one before too (it may describe an earlier stage of the work).
 */
export type StateOrder = "after" | "since-previous" | "before-previous";

/**
 * Records how many compactions PostCompact had counted when `carryover-state init` wrote the template: the agent
 * fills it right after, so that count is a floor for when the state was saved that the wall clock cannot move.
 */
export function stampCompactState(env: Env, sessionId: string, stateDir?: string): void {
  const compactions = loadLastCompaction(sessionPaths(env, sessionId))?.seq ?? 0;
  writeFileAtomic(
    compactStateCompanions(compactStatePath(env, sessionId, stateDir)).stamp,
    `${JSON.stringify({ compactions })}\n`,
  );
}

/** The count `stampCompactState` recorded for the state at `statePath`; null when there is none to trust. */
export function readStateStamp(statePath: string): number | null {
  const stamp = readJsonNoFollow(compactStateCompanions(statePath).stamp) as { compactions?: unknown } | null;
  const compactions = stamp?.compactions;
  return Number.isInteger(compactions) && (compactions as number) >= 0 ? (compactions as number) : null;
}

/**
 * Orders a state stamped `stamp` against `compaction` by PostCompact's count, which only goes up, where a clock
 * that ran fast at one compaction makes a state saved after it look older. `last` is PostCompact's record:
 * `compaction` itself when PostCompact already ran for it, else the one before. Null when either count is missing
 * or they disagree (the record was lost and counting restarted): then only the wall clock can tell.
 */
export function orderStateByCount(
  stamp: number | null,
  last: LastCompaction | null,
  compaction: { promptId?: string | undefined; atMs: number },
): StateOrder | null {
  if (stamp === null || last === null) return null;
  const current = isSameCompaction(last, compaction) ? last.seq : last.seq + 1;
  if (stamp > last.seq) return null;
  if (stamp >= current) return "after";
  return stamp === current - 1 ? "since-previous" : "before-previous";
}
