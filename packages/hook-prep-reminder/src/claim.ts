import {
  announcedMarkerName,
  createMarkerOnce,
  levelMarkerName,
  rearmLevelsBelow,
  removeMarker,
  type Session,
} from "@carryover/core";

export interface ClaimOptions {
  levels: readonly number[];
  mutedLevels: readonly number[];
  nowMs: number;
}

/**
 * Marks every level reached at `percent` and not yet announced as announced, and returns the one to tell: the
 * highest that is not muted (null: nothing new, all muted, or a racing prompt claimed it: `createMarkerOnce`
 * lets one of them win). Levels the context is back below are re-armed first, and pending `level-N` markers
 * are cleared either way, so a warning never outlives a compaction and the probe holds on the next prompt.
 */
export function claimLevel(
  session: Session,
  markers: ReadonlySet<string>,
  percent: number,
  options: ClaimOptions,
): number | null {
  const { levels, mutedLevels, nowMs } = options;
  const rearmed = new Set(rearmLevelsBelow(session, percent, levels, markers));
  const announced = (level: number) => !rearmed.has(level) && markers.has(announcedMarkerName(level));
  const reached = [...new Set(levels)].filter((level) => percent >= level && !announced(level)).sort((a, b) => a - b);
  let told: number | null = null;
  const top = reached.at(-1);
  if (top !== undefined && createMarkerOnce(session, announcedMarkerName(top), { percent }, nowMs)) {
    for (const level of reached) {
      if (level !== top) createMarkerOnce(session, announcedMarkerName(level), { percent }, nowMs);
    }
    told = reached.filter((level) => !mutedLevels.includes(level)).at(-1) ?? null;
  }
  for (const level of levels) if (markers.has(levelMarkerName(level))) removeMarker(session, levelMarkerName(level));
  return told;
}
