import type { Env } from "../env.ts";
import { announcedMarkerName, levelMarkerName } from "./levels.ts";
import { createMarkerOnce, hasMarker, listMarkers, removeMarker } from "./markers.ts";

/**
 * A level is re-armed (may be announced again) once the context falls this many points below it: a
 * compaction, a /clear or a rewind. The margin keeps a context hovering around a level from being
 * announced at every small dip.
 */
export const REARM_MARGIN_PERCENT = 10;

/** Forgets that levels well above `percent` were raised or announced; returns the levels re-armed. */
export function rearmLevelsBelow(env: Env, sessionId: string, percent: number, levels: readonly number[]): number[] {
  return rearm(env, sessionId, percent, levels, new Set(listMarkers(env, sessionId)));
}

function rearm(env: Env, sessionId: string, percent: number, levels: readonly number[], present: ReadonlySet<string>): number[] {
  const rearmed: number[] = [];
  for (const level of levels) {
    if (percent >= level - REARM_MARGIN_PERCENT) continue;
    const hadPending = removeIfPresent(env, sessionId, levelMarkerName(level), present);
    const hadAnnounced = removeIfPresent(env, sessionId, announcedMarkerName(level), present);
    if (hadPending || hadAnnounced) rearmed.push(level);
  }
  return rearmed;
}

// Listed once, removed only if listed: this runs with every status line render, and every miss would be a
// failed unlink. A marker created after the listing is dealt with at the next render.
function removeIfPresent(env: Env, sessionId: string, name: string, present: ReadonlySet<string>): boolean {
  return present.has(name) && removeMarker(env, sessionId, name);
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
export function syncLevelMarkers<T>(env: Env, sessionId: string, percent: number, levels: readonly number[], data: T, nowMs: number): number[] {
  const present = new Set(listMarkers(env, sessionId));
  rearm(env, sessionId, percent, levels, present);
  const raised: number[] = [];
  for (const level of levels) {
    const pending = levelMarkerName(level);
    if (percent < level) {
      removeIfPresent(env, sessionId, pending, present);
      continue;
    }
    if (present.has(pending) || present.has(announcedMarkerName(level))) continue;
    // Asked again right before raising: the reminder may have announced it since the listing.
    if (hasMarker(env, sessionId, announcedMarkerName(level)) || hasMarker(env, sessionId, pending)) continue;
    if (createMarkerOnce(env, sessionId, pending, data, nowMs)) raised.push(level);
  }
  return raised;
}
