import { join } from "node:path";
import { readFileNoFollow, type Session, type TranscriptFacts, writeFileAtomic } from "@carryover/core";

/** What the pre-compact hook saw and wrote for the session's latest compaction. */
export interface PreCompactJournal {
  trigger: "manual" | "auto";
  promptId?: string | undefined;
  atMs: number;
  /** When each compaction of the session this hook saw began, oldest first, this one last: what each was named by. */
  startedAtMs: number[];
  transcriptPath?: string | undefined;
  /** The transcript scan: activity since the previous compaction, state over the whole session; null: not read. */
  facts: TranscriptFacts | null;
  /** Files it wrote (absolute paths), null for those it did not. */
  wrote: { changesFile: string | null; snapshot: string | null; memoryTopic: string | null };
}

const JOURNAL_FILE = "pre-compact.json";
// As many as the ledger keeps by default: older compactions are named by their boundary's time.
const MAX_STARTS = 50;

/** The start times the previous PreCompact journaled, oldest first ([] when there is no journal). */
export function readStartTimes(session: Session): number[] {
  const text = readFileNoFollow(join(session.dir, JOURNAL_FILE));
  if (text === null) return [];
  const journal = JSON.parse(text) as Partial<PreCompactJournal>;
  const times = Array.isArray(journal.startedAtMs) ? journal.startedAtMs : [journal.atMs];
  return times.filter((atMs): atMs is number => typeof atMs === "number");
}

/** Replaces the session's journal (one compaction at a time: the latest), carrying the earlier start times on. */
export function writePreCompactJournal(
  session: Session,
  journal: Omit<PreCompactJournal, "startedAtMs">,
  earlierStartsMs: readonly number[],
): void {
  const startedAtMs = [...earlierStartsMs, journal.atMs].slice(-MAX_STARTS);
  writeFileAtomic(join(session.ensureDir(), JOURNAL_FILE), JSON.stringify({ ...journal, startedAtMs }));
}
