import { type Env, errorMessage, levelPercent, loadReading, recordReading, sameLevelBands, syncLevelMarkers, type UsageReading, usagePercents } from "@carryover/core";

export interface RememberOptions {
  levels: readonly number[];
  freshReadingMs: number;
}

/**
 * Keeps the session's reading for the hooks that have no statusline stdin, and runs the level protocol:
 * raises `level-N` markers for the reminder and re-arms levels the context fell well below. This runs
 * after every response: an unchanged reading is rewritten only when half its freshness has passed, and
 * the levels are synced again only when the percentage moved to another band of some level (or the
 * levels changed). Skipping the sync loses nothing: the markers were synced for the previous reading, the
 * reminder only ever turns what it announced into `announced-N`, and a compaction forgets the reading.
 */
export function remember(env: Env, sessionId: string, reading: UsageReading, { levels, freshReadingMs }: RememberOptions): void {
  const previous = loadReading(env, sessionId);
  const ageMs = previous ? reading.atMs - previous.atMs : Number.POSITIVE_INFINITY;
  const unchanged =
    previous !== null &&
    previous.contextTokens === reading.contextTokens &&
    previous.modelWindowTokens === reading.modelWindowTokens &&
    previous.autoCompactTokens === reading.autoCompactTokens &&
    previous.model === reading.model;
  if (unchanged && ageMs >= 0 && ageMs <= freshReadingMs / 2) return;
  // With auto-compaction off there is no point to prepare for: no level is raised.
  const syncs = reading.autoCompactTokens !== null;
  // The percentages ride along for anyone reading the file; the hooks recompute them. Recorded before the
  // markers are synced: a reminder that sees a new marker must also see the reading that raised it.
  const recorded: UsageReading = { ...reading, ...usagePercents(reading), freshUntilMs: reading.atMs + freshReadingMs };
  try {
    recordReading(env, sessionId, syncs ? { ...recorded, syncedLevels: [...levels] } : recorded);
  } catch (error) {
    throw new Error(`reading not recorded: ${errorMessage(error)}`, { cause: error });
  }
  if (!syncs) return;
  const percent = levelPercent(reading);
  if (previous && wasSyncedFor(previous, levels) && sameLevelBands(levelPercent(previous), percent, levels)) return;
  try {
    syncLevelMarkers(env, sessionId, percent, levels, { percent, contextTokens: reading.contextTokens, autoCompactTokens: reading.autoCompactTokens }, reading.atMs);
  } catch (error) {
    // Not synced after all: the next reading syncs again.
    recordReading(env, sessionId, recorded);
    throw new Error(`levels not synced: ${errorMessage(error)}`, { cause: error });
  }
}

function wasSyncedFor(previous: UsageReading, levels: readonly number[]): boolean {
  const synced = previous.syncedLevels;
  return previous.autoCompactTokens !== null && Array.isArray(synced) && synced.length === levels.length && synced.every((level, i) => level === levels[i]);
}
