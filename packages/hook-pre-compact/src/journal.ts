import { join } from "node:path";
import { ensureSessionDir, type Env, readFileNoFollow, sessionDirPath, type TranscriptFacts, writeFileAtomic } from "@carryover/core";

/** What the pre-compact hook saw and wrote for the session's latest compaction. */
export interface PreCompactJournal {
  trigger: "manual" | "auto";
  promptId?: string | undefined;
  atMs: number;
  transcriptPath?: string | undefined;
  /** The transcript scan: activity since the previous compaction, state over the whole session. */
  facts: TranscriptFacts;
  /** Files it wrote (absolute paths), null for those it did not. */
  wrote: { changesFile: string | null; snapshot: string | null; memoryTopic: string | null };
}

const JOURNAL_FILE = "pre-compact.json";

export function preCompactJournalPath(env: Env, sessionId: string): string {
  return join(sessionDirPath(env, sessionId), JOURNAL_FILE);
}

/** Replaces the session's journal (one compaction at a time: the latest). */
export function writePreCompactJournal(env: Env, sessionId: string, journal: PreCompactJournal): void {
  writeFileAtomic(join(ensureSessionDir(env, sessionId), JOURNAL_FILE), JSON.stringify(journal));
}

/** The latest journal, or null when there is none or it cannot be read. */
export function readPreCompactJournal(env: Env, sessionId: string): PreCompactJournal | null {
  try {
    const value = JSON.parse(readFileNoFollow(preCompactJournalPath(env, sessionId)) ?? "null") as PreCompactJournal | null;
    return value && typeof value.atMs === "number" && typeof value.facts === "object" ? value : null;
  } catch {
    return null;
  }
}
