import { readFileSync } from "node:fs";
import { join } from "node:path";
import { appendLine, writeFileAtomic } from "./atomic.ts";
import type { Env } from "./env.ts";
import { ensureSessionDir, sessionDirPath } from "./paths.ts";

/** One compaction as PostCompact saw it. */
export interface LedgerEntry {
  atMs: number;
  trigger: "manual" | "auto";
  promptId?: string | undefined;
  /** The `<summary>` part of the compaction output (the part the model gets back). */
  summary: string;
}

const LEDGER_FILE = "compactions.jsonl";

export function ledgerPath(env: Env, sessionId: string): string {
  return join(sessionDirPath(env, sessionId), LEDGER_FILE);
}

/** PostCompact's `compact_summary` is the raw model output; Claude Code keeps only `<summary>`. */
export function summaryOf(compactSummary: string): string {
  const match = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(compactSummary);
  return (match ? match[1]! : compactSummary.replace(/<analysis>[\s\S]*?<\/analysis>/g, "")).trim();
}

/** Every entry, oldest first; a torn or foreign line (a crash mid-append) is skipped. */
export function readLedger(env: Env, sessionId: string): LedgerEntry[] {
  let text: string;
  try {
    text = readFileSync(ledgerPath(env, sessionId), "utf8");
  } catch {
    return [];
  }
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

/** Appends one entry; keeps at most `maxEntries`, dropping the oldest. */
export function appendLedger(env: Env, sessionId: string, entry: LedgerEntry, maxEntries: number): void {
  const path = join(ensureSessionDir(env, sessionId), LEDGER_FILE);
  appendLine(path, JSON.stringify(entry));
  const entries = readLedger(env, sessionId);
  if (entries.length > maxEntries) {
    writeFileAtomic(path, entries.slice(-maxEntries).map((kept) => `${JSON.stringify(kept)}\n`).join(""));
  }
}
