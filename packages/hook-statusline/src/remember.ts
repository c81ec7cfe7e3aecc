import { type Env, levelPercent, loadReading, recordReading, syncLevelMarkers, type UsageReading, usagePercents } from "@carryover/core";

export interface RememberOptions {
  levels: readonly number[];
  freshReadingMs: number;
}

/**
 * Keeps the session's reading for the hooks that have no statusline stdin, and runs the level protocol:
 * raises `level-N` markers for the reminder and re-arms levels the context fell well below. This runs
 * after every response: an unchanged reading is rewritten (and the levels synced again) only when half
 * its freshness has passed. Skipping the sync then loses nothing: the markers were synced for this same
 * percentage, the reminder only ever clears what it announced, and a compaction changes the reading.
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
  // The percentages ride along for anyone reading the file; the hooks recompute them.
  recordReading(env, sessionId, { ...reading, ...usagePercents(reading), freshUntilMs: reading.atMs + freshReadingMs });
  // With auto-compaction off there is no point to prepare for: no level is raised.
  if (reading.autoCompactTokens === null) return;
  const percent = levelPercent(reading);
  syncLevelMarkers(env, sessionId, percent, levels, { percent, contextTokens: reading.contextTokens, autoCompactTokens: reading.autoCompactTokens }, reading.atMs);
}
