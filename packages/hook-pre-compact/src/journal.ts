import { join } from "node:path";
import { type Session, type TranscriptFacts, writeFileAtomic } from "@carryover/core";

/** What the pre-compact hook saw and wrote for the session's latest compaction. */
export interface PreCompactJournal {
  trigger: "manual" | "auto";
  promptId?: string | undefined;
  atMs: number;
  transcriptPath?: string | undefined;
  /** The transcript scan: activity since the previous compaction, state over the whole session; null: not read. */
  facts: TranscriptFacts | null;
  /** Files it wrote (absolute paths), null for those it did not. */
  wrote: { changesFile: string | null; snapshot: string | null; memoryTopic: string | null };
}

const JOURNAL_FILE = "pre-compact.json";

/** Replaces the session's journal: one compaction at a time, the latest. */
export function writePreCompactJournal(session: Session, journal: PreCompactJournal): void {
  writeFileAtomic(join(session.ensureDir(), JOURNAL_FILE), JSON.stringify(journal));
}
