/** How full the context is, measured one way or another, at one moment. */
export interface UsageReading {
  source: "statusline" | "transcript";
  /** input + cache creation + cache read tokens of the last response (what the next request resends). */
  contextTokens: number;
  modelWindowTokens: number;
  /** Where auto-compaction fires; null when it is disabled. */
  autoCompactTokens: number | null;
  model?: string | undefined;
  atMs: number;
  /**
   * Until when the statusline vouches for it (its `atMs` plus the `freshReadingMs` it ran with): the
   * reminder's fast path can then judge a reading without loading config.
   */
  freshUntilMs?: number | undefined;
  /** The levels the statusline synced the level markers for with this reading. */
  syncedLevels?: number[] | undefined;
  /**
   * When the status line process that took it started (`processStartMs`): Claude Code wrote its stdin before it
   * started, so a reading by a process older than the last compaction's PostCompact describes the context before it.
   */
  takenByProcessStartedMs?: number | undefined;
}

export interface UsagePercents {
  /** Share of the model window, as Claude Code's own `used_percentage` reports it. */
  windowPercent: number;
  /** Share of the auto-compact point: what tells how close compaction is; null when disabled. */
  autoCompactPercent: number | null;
  /** Tokens left before auto-compaction; null when disabled. */
  tokensToAutoCompact: number | null;
}

export function usagePercents(reading: UsageReading): UsagePercents {
  const windowPercent = percentOf(reading.contextTokens, reading.modelWindowTokens);
  if (reading.autoCompactTokens === null) return { windowPercent, autoCompactPercent: null, tokensToAutoCompact: null };
  return {
    windowPercent,
    autoCompactPercent: percentOf(reading.contextTokens, reading.autoCompactTokens),
    tokensToAutoCompact: Math.max(0, reading.autoCompactTokens - reading.contextTokens),
  };
}

/** The percent that levels are compared against: of the auto-compact point, else of the window. */
export function levelPercent(reading: UsageReading): number {
  const percents = usagePercents(reading);
  return percents.autoCompactPercent ?? percents.windowPercent;
}

function percentOf(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

export interface UsageCounts {
  input_tokens?: number | null | undefined;
  cache_creation_input_tokens?: number | null | undefined;
  cache_read_input_tokens?: number | null | undefined;
}

export function contextTokensOf(usage: UsageCounts): number {
  return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}
