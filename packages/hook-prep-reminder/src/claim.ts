import { announcedMarkerName, createMarkerOnce, type Env, hasMarker, levelMarkerName, rearmLevelsBelow, removeMarker } from "@carryover/core";

export interface ClaimOptions {
  levels: readonly number[];
  mutedLevels: readonly number[];
  nowMs: number;
}

/**
 * Marks every level reached at `percent` and not yet announced as announced, and returns the one to
 * tell: the highest that is not muted (null: nothing new, all muted, or a racing prompt claimed it:
 * `createMarkerOnce` lets one of them win). Levels the context is back below are re-armed first, and
 * pending `level-N` markers are cleared either way, so a warning never outlives a compaction and the
 * fast path holds on the next prompt.
 */
export function claimLevel(env: Env, sessionId: string, percent: number, { levels, mutedLevels, nowMs }: ClaimOptions): number | null {
  rearmLevelsBelow(env, sessionId, percent, levels);
  const reached = [...new Set(levels)].filter((level) => percent >= level && !hasMarker(env, sessionId, announcedMarkerName(level))).sort((a, b) => a - b);
  let told: number | null = null;
  const top = reached.at(-1);
  if (top !== undefined && createMarkerOnce(env, sessionId, announcedMarkerName(top), { percent }, nowMs)) {
    for (const level of reached) if (level !== top) createMarkerOnce(env, sessionId, announcedMarkerName(level), { percent }, nowMs);
    told = reached.filter((level) => !mutedLevels.includes(level)).at(-1) ?? null;
  }
  for (const level of levels) removeMarker(env, sessionId, levelMarkerName(level));
  return told;
}
