import { type CompactionRecord, type LedgerEntry, SAME_COMPACTION_WINDOW_MS } from "@carryover/core";

/** An earlier compaction of this session and what its summary said. */
export interface EarlierSummary {
  trigger: string;
  atMs: number | null;
  summary: string;
}

/**
 * The session's earlier compactions, oldest first: every one the transcript holds (boundary or not), with the
 * summary the transcript kept or, failing that, the post-compact ledger's ("" when neither has it); and the
 * ledger's others (from before the part of the transcript read). The transcript decides: carryover may have been installed
 * mid-session, the ledger lost, the session resumed elsewhere.
 */
export function earlierSummaries(
  ledger: readonly LedgerEntry[],
  compactions: readonly CompactionRecord[],
): EarlierSummary[] {
  const near = (entry: LedgerEntry, record: CompactionRecord) =>
    record.atMs !== null && Math.abs(entry.atMs - record.atMs) <= SAME_COMPACTION_WINDOW_MS;
  const fromTranscript = compactions.map((record) => ({
    trigger:
      record.trigger === "unknown"
        ? (ledger.find((entry) => near(entry, record))?.trigger ?? "unknown")
        : record.trigger,
    atMs: record.atMs,
    summary: (record.summary || ledger.find((entry) => near(entry, record))?.summary || "").trim(),
  }));
  const onlyInLedger = ledger
    .filter((entry) => !compactions.some((record) => near(entry, record)))
    .map((entry) => ({ trigger: entry.trigger, atMs: entry.atMs, summary: entry.summary.trim() }));
  // Those only in the ledger come from before the transcript's part that was read, in the ledger's order, which is
  // the compactions': their recorded times go back when the clock ran fast at one.
  return [...onlyInLedger, ...fromTranscript];
}
