// The level protocol: the statusline raises `level-N` when the context reaches a level (syncLevelMarkers),
// the reminder turns it into `announced-N` once it told the user, and a level is re-armed when the context
// falls well below it (rearmLevelsBelow) or after a compaction (rearmLevels).

import { createMarkerOnce, hasMarker, listMarkers, removeMarker } from "./markers.ts";
import type { Session } from "./session.ts";

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

/**
 * A level is re-armed (may be announced again) once the context falls this many points below it: a
 * compaction, a /clear or a rewind. The margin keeps a context hovering around a level from being
 * announced at every small dip.
 */
const REARM_MARGIN_PERCENT = 10;

/**
 * Forgets that levels well above `percent` were raised or announced; returns the levels re-armed. `present`
 * is the session's markers when the caller just listed them.
 */
export function rearmLevelsBelow(
  session: Session,
  percent: number,
  levels: readonly number[],
  present: ReadonlySet<string> = new Set(listMarkers(session)),
): number[] {
  return rearm(session, percent, levels, present);
}

function rearm(session: Session, percent: number, levels: readonly number[], present: ReadonlySet<string>): number[] {
  const rearmed: number[] = [];
  for (const level of levels) {
    if (percent >= level - REARM_MARGIN_PERCENT) continue;
    const hadPending = removeIfPresent(session, levelMarkerName(level), present);
    const hadAnnounced = removeIfPresent(session, announcedMarkerName(level), present);
    if (hadPending || hadAnnounced) rearmed.push(level);
  }
  return rearmed;
}

// Listed once, removed only if listed: this runs with every status line render, and every miss would be a
// failed unlink. A marker created after the listing is dealt with at the next render.
function removeIfPresent(session: Session, name: string, present: ReadonlySet<string>): boolean {
  return present.has(name) && removeMarker(session, name);
}

/** Where `percent` stands to `level`: 2 at or above it, 1 below it within the re-arm margin, 0 further below. */
function bandOf(percent: number, level: number): number {
  return percent >= level ? 2 : percent >= level - REARM_MARGIN_PERCENT ? 1 : 0;
}

/**
 * Whether `percent` stands where `syncedPercent` stood to every level: a sync for it would then change
 * nothing the sync for `syncedPercent` left, except what others did since (the reminder announcing a
 * level, which a sync leaves alone; a compaction, after which the reading is forgotten).
 */
export function sameLevelBands(syncedPercent: number, percent: number, levels: readonly number[]): boolean {
  return levels.every((level) => bandOf(syncedPercent, level) === bandOf(percent, level));
}

/**
 * The statusline's part of the level protocol, run with each reading: raises `level-N` for every level
 * reached and not yet announced, drops a pending `level-N` the context is back below (a warning must not
 * outlive its cause), and re-arms the levels left well behind. Returns the levels raised by this call.
 */
export function syncLevelMarkers<T>(
  session: Session,
  percent: number,
  levels: readonly number[],
  data: T,
  nowMs: number,
): number[] {
  const present = new Set(listMarkers(session));
  rearm(session, percent, levels, present);
  const raised: number[] = [];
  for (const level of levels) {
    const pending = levelMarkerName(level);
    if (percent < level) {
      removeIfPresent(session, pending, present);
      continue;
    }
    if (present.has(pending) || present.has(announcedMarkerName(level))) continue;
    // Asked again right before raising: the reminder may have announced it since the listing.
    if (hasMarker(session, announcedMarkerName(level)) || hasMarker(session, pending)) continue;
    if (createMarkerOnce(session, pending, data, nowMs)) raised.push(level);
  }
  return raised;
}

/** After a compaction the context is small again: every level may be announced anew. */
export function rearmLevels(session: Session): void {
  const names = [...listMarkers(session, LEVEL_MARKER_PREFIX), ...listMarkers(session, ANNOUNCED_MARKER_PREFIX)];
  for (const name of names) removeMarker(session, name);
}
