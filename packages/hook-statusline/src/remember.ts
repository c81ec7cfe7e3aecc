import {
  levelPercent,
  loadLastCompaction,
  loadReading,
  predatesCompaction,
  processStartMs,
  recordReading,
  type Session,
  sameLevelBands,
  syncLevelMarkers,
  type UsageReading,
  usagePercents,
} from "@carryover/core";

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
export function remember(session: Session, reading: UsageReading, { levels, freshReadingMs }: RememberOptions): void {
  const compaction = loadLastCompaction(session);
  // Claude Code wrote this render's stdin before a compaction whose PostCompact has run since: not a reading now.
  // The process's start (a /proc read) is taken only when a compaction or a reading to keep needs it.
  if (compaction && predatesCompaction(processStartMs(), compaction)) return;
  const previous = loadReading(session, compaction);
  const ageMs = previous ? reading.atMs - previous.atMs : Number.POSITIVE_INFINITY;
  const unchanged =
    previous !== null &&
    previous.contextTokens === reading.contextTokens &&
    previous.modelWindowTokens === reading.modelWindowTokens &&
    previous.autoCompactTokens === reading.autoCompactTokens &&
    previous.model === reading.model;
  if (unchanged && ageMs >= 0 && ageMs <= freshReadingMs / 2) return;
  // The percentages ride along for anyone reading the file; the hooks recompute them.
  const recorded: UsageReading = {
    ...reading,
    ...usagePercents(reading),
    freshUntilMs: reading.atMs + freshReadingMs,
    takenByProcessStartedMs: processStartMs(),
  };
  // With auto-compaction off there is no point to prepare for: no level is raised.
  if (reading.autoCompactTokens === null) {
    recordReading(session, recorded);
    return;
  }
  const synced = { ...recorded, syncedLevels: [...levels] };
  const percent = levelPercent(reading);
  if (previous && wasSyncedFor(previous, levels) && sameLevelBands(levelPercent(previous), percent, levels)) {
    recordReading(session, synced);
    return;
  }
  // Recorded before the markers are synced (a reminder that sees a new marker must also see the reading that
  // raised it), and marked synced only after: a sync that fails is done again with the next reading.
  recordReading(session, recorded);
  const data = { percent, contextTokens: reading.contextTokens, autoCompactTokens: reading.autoCompactTokens };
  syncLevelMarkers(session, percent, levels, data, reading.atMs);
  recordReading(session, synced);
}

function wasSyncedFor(previous: UsageReading, levels: readonly number[]): boolean {
  const synced = previous.syncedLevels;
  return (
    previous.autoCompactTokens !== null &&
    Array.isArray(synced) &&
    synced.length === levels.length &&
    synced.every((level, i) => level === levels[i])
  );
}
