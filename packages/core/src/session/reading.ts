import { unlinkSync, utimesSync } from "node:fs";
import { autoCompactTokens } from "../claude/auto-compact.ts";
import { modelWindowTokens } from "../claude/model-window.ts";
import { readAutoCompactSettings } from "../claude/settings.ts";
import type { UsageReading } from "../claude/usage.ts";
import { readJsonNoFollow } from "../fs/atomic.ts";
import { joinPath } from "../fs/join-path.ts";
import { overwriteInPlace } from "../fs/overwrite-in-place.ts";
import { readTailUsage } from "../transcript/tail.ts";
import { loadLastCompaction, predatesCompaction } from "./last-compaction.ts";
import type { Session, SessionPaths } from "./session.ts";

const READING_FILE = "usage.json";

/**
 * Keeps the newest reading for the session, for hooks that run without a statusline stdin. Overwritten in
 * place and not fsynced: the statusline writes it after every response, and a reading lost in a crash (or
 * unreadable to a reader racing the write) costs one transcript read. An existing file is rewritten without
 * walking the session dir: it was made there only after that walk found the dirs private. A missing one is
 * made after the walk. Its mtime is set to `freshUntilMs`: a hook's sh prelude (packages/build), which cannot
 * parse JSON, compares it with the time it stamps on a file of its own.
 */
export function recordReading(session: Session, reading: UsageReading): void {
  const text = JSON.stringify(reading);
  let path = joinPath(session.dir, READING_FILE);
  try {
    overwriteInPlace(path, text, { create: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    path = joinPath(session.ensureDir(), READING_FILE);
    overwriteInPlace(path, text);
  }
  if (reading.freshUntilMs !== undefined) utimesSync(path, reading.atMs / 1000, reading.freshUntilMs / 1000);
}

/**
 * After a compaction the recorded reading describes the context before it: forgotten, so the statusline's
 * next reading syncs the levels afresh and the reminder asks the transcript until then.
 */
export function forgetReading(session: Session): void {
  try {
    unlinkSync(joinPath(session.dir, READING_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/**
 * The newest recorded reading, or null; creates nothing. A reading taken before the session's last compaction is
 * null, whenever it was written: a status line render started before PostCompact can finish after it.
 */
export function loadReading(session: SessionPaths, compaction = loadLastCompaction(session)): UsageReading | null {
  const reading = readJsonNoFollow(joinPath(session.dir, READING_FILE)) as UsageReading | null;
  if (typeof reading?.contextTokens !== "number" || typeof reading.atMs !== "number") return null;
  return predatesCompaction(reading.takenByProcessStartedMs, compaction) ? null : reading;
}

export function isFresh(reading: UsageReading, nowMs: number, freshReadingMs: number): boolean {
  return nowMs - reading.atMs <= freshReadingMs;
}

export interface UsageQuery {
  session: Session;
  transcriptPath: string | undefined;
  projectDir: string | undefined;
  nowMs: number;
  freshReadingMs: number;
  /** 0 guesses the window from the model id. */
  contextWindowTokens: number;
}

/**
 * The best current reading: the statusline's while fresh, else the transcript's tail (bounded read),
 * sized against the window the statusline last reported or the model's. Null when neither exists.
 * `recorded` is the session's reading when the caller already loaded it.
 */
export function currentUsage(query: UsageQuery, recorded = loadReading(query.session)): UsageReading | null {
  if (recorded && isFresh(recorded, query.nowMs, query.freshReadingMs)) return recorded;
  return transcriptUsage(query, recorded);
}

export function transcriptUsage(query: UsageQuery, recorded: UsageReading | null = null): UsageReading | null {
  if (!query.transcriptPath) return null;
  const tail = readTailUsage(query.transcriptPath);
  if (!tail) return null;
  const model = tail.model ?? recorded?.model;
  const window = query.contextWindowTokens || recorded?.modelWindowTokens || modelWindowTokens(model);
  const { env } = query.session;
  return {
    source: "transcript",
    contextTokens: tail.contextTokens,
    modelWindowTokens: window,
    autoCompactTokens: autoCompactTokens(window, env, readAutoCompactSettings(env, query.projectDir)),
    model,
    atMs: query.nowMs,
  };
}
