import { appendLine, readFileNoFollow, writeFileAtomic } from "../fs/atomic.ts";
import { joinPath } from "../fs/join-path.ts";
import { capText } from "../text/cap.ts";
import type { Session, SessionPaths } from "./session.ts";

/** One compaction as PostCompact saw it. */
export interface LedgerEntry {
  atMs: number;
  trigger: "manual" | "auto";
  promptId?: string | undefined;
  /** The `<summary>` part of the compaction output (the part the model gets back). */
  summary: string;
}

const LEDGER_FILE = "compactions.jsonl";
export const MAX_SUMMARY_CHARS = 50_000;

export function ledgerPath(session: SessionPaths): string {
  return joinPath(session.dir, LEDGER_FILE);
}

/** PostCompact's `compact_summary` is the raw model output; Claude Code keeps only `<summary>`. */
export function summaryOf(compactSummary: string): string {
  const match = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(compactSummary);
  return (match ? match[1]! : compactSummary.replace(/<analysis>[\s\S]*?<\/analysis>/g, "")).trim();
}

// A symlinked ledger reads as empty (its appends are refused): it is not the session's.
function ledgerText(session: SessionPaths): string {
  try {
    return readFileNoFollow(ledgerPath(session)) ?? "";
  } catch {
    return "";
  }
}

/** Every entry, oldest first; a torn or foreign line (a crash mid-append) is skipped. */
export function readLedger(session: SessionPaths): LedgerEntry[] {
  return parseLedger(ledgerText(session));
}

function parseLedger(text: string): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const entry = JSON.parse(line) as LedgerEntry;
      if (typeof entry.summary === "string" && typeof entry.atMs === "number") entries.push(entry);
    } catch {
      // torn line
    }
  }
  return entries;
}

/**
 * Appends one entry; keeps at most `maxEntries`, dropping the oldest. A summary is kept up to
 * `MAX_SUMMARY_CHARS`: readers quote at most 10,000 characters of one, and every append and every
 * PreCompact reads the whole ledger, so one pathological summary must not slow each later compaction.
 */
export function appendLedger(session: Session, entry: LedgerEntry, maxEntries: number): void {
  const path = joinPath(session.ensureDir(), LEDGER_FILE);
  const text = ledgerText(session);
  const kept = { ...entry, summary: capText(entry.summary, MAX_SUMMARY_CHARS) };
  const entries = [...parseLedger(text), kept];
  // A line appended after a torn one (a crash mid-append) would be glued to it and lost: rewrite instead.
  const torn = text !== "" && !text.endsWith("\n");
  if (entries.length > maxEntries || torn)
    writeFileAtomic(
      path,
      entries
        .slice(-maxEntries)
        .map((item) => `${JSON.stringify(item)}\n`)
        .join(""),
    );
  else appendLine(path, JSON.stringify(kept));
}
