/** The levels (percent of the auto-compact point) at or above `percent`, lowest first. */
export function levelsReached(percent: number, levels: readonly number[]): number[] {
  return [...levels].filter((level) => percent >= level).sort((a, b) => a - b);
}

/** The highest level reached, or null below the first. */
export function highestLevelReached(percent: number, levels: readonly number[]): number | null {
  return levelsReached(percent, levels).at(-1) ?? null;
}

/** Raised by the statusline when a level is crossed; taken by the reminder. */
export const LEVEL_MARKER_PREFIX = "level-";
/** Left by the reminder once it told the user; a level is told once until re-armed. */
export const ANNOUNCED_MARKER_PREFIX = "announced-";

export function levelMarkerName(level: number): string {
  return `${LEVEL_MARKER_PREFIX}${Math.round(level)}`;
}

export function announcedMarkerName(level: number): string {
  return `${ANNOUNCED_MARKER_PREFIX}${Math.round(level)}`;
}
