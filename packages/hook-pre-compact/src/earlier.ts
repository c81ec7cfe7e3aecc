import {
  type CompactionRecord,
  compactionStartBefore,
  type LedgerEntry,
  SAME_COMPACTION_WINDOW_MS,
} from "@carryover/core";

/** An earlier compaction of this session and what its summary said. */
export interface EarlierSummary {
  trigger: string;
  /** When it began, as its PreCompact output named it; else its boundary's or ledger entry's time. */
  atMs: number | null;
  summary: string;
}

/**
 * The session's earlier compactions, oldest first: every one the transcript holds (boundary or not), with the
 * summary the transcript kept or, failing that, the post-compact ledger's ("" when neither has it); and the
 * ledger's others (from before the part of the transcript read). The transcript decides: carryover may have been
 * installed mid-session, the ledger lost, the session resumed elsewhere.
 *
 * `startedAtMs` are the earlier compactions' PreCompact starts (core's `readCompactionStarts`): each compaction is
 * named by its start wherever one matches.
 */
export function earlierSummaries(
  ledger: readonly LedgerEntry[],
  compactions: readonly CompactionRecord[],
  startedAtMs: readonly number[],
): EarlierSummary[] {
  const near = (entry: LedgerEntry, record: CompactionRecord) =>
    record.atMs !== null && Math.abs(entry.atMs - record.atMs) <= SAME_COMPACTION_WINDOW_MS;
  const fromTranscript = compactions.map((record, index) => ({
    trigger:
      record.trigger === "unknown"
        ? (ledger.find((entry) => near(entry, record))?.trigger ?? "unknown")
        : record.trigger,
    atMs:
      record.atMs === null
        ? null
        : compactionStartBefore(record.atMs, compactions[index - 1]?.atMs ?? null, startedAtMs),
    summary: (record.summary || ledger.find((entry) => near(entry, record))?.summary || "").trim(),
  }));
  const onlyInLedger = ledger
    .filter((entry) => !compactions.some((record) => near(entry, record)))
    .map((entry) => ({
      trigger: entry.trigger,
      atMs: startOf(entry.atMs, startedAtMs),
      summary: entry.summary.trim(),
    }));
  // Those only in the ledger come from before the transcript's part that was read, in the ledger's order, which is
  // the compactions': their recorded times go back when the clock ran fast at one.
  return [...onlyInLedger, ...fromTranscript];
}

/** The recorded start nearest to a compaction's recorded time, within the same-compaction window; else that time. */
function startOf(recordedAtMs: number, startedAtMs: readonly number[]): number {
  let best = recordedAtMs;
  let bestDistance = SAME_COMPACTION_WINDOW_MS;
  for (const start of startedAtMs) {
    const distance = Math.abs(recordedAtMs - start);
    if (distance <= bestDistance) [best, bestDistance] = [start, distance];
  }
  return best;
}
