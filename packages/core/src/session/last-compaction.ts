import { existsSync } from "node:fs";
import { readJsonNoFollow, writeFileAtomic } from "../fs/atomic.ts";
import { joinPath } from "../fs/join-path.ts";
import { processStartMs } from "../runtime/process-start.ts";
import type { Session, SessionPaths } from "./session.ts";

/** What PostCompact records of the session's last compaction. */
export interface LastCompaction {
  /** How many compactions PostCompact has seen in this session, this one included: it never goes back. */
  seq: number;
  /** When the PostCompact process started (`processStartMs`): anything started before it predates the compaction. */
  startedMs: number;
  atMs: number;
  promptId?: string | undefined;
}

const RECORD_FILE = "compaction.json";

/** Counts the compaction and fences off what processes started before this one measured. */
export function recordCompaction(session: Session, promptId: string | undefined, nowMs: number): LastCompaction {
  const record = {
    seq: (loadLastCompaction(session)?.seq ?? 0) + 1,
    startedMs: processStartMs(),
    atMs: nowMs,
    promptId,
  };
  writeFileAtomic(joinPath(session.ensureDir(), RECORD_FILE), JSON.stringify(record));
  return record;
}

/** The session's last compaction as PostCompact recorded it; null when none was (or the file is not ours). */
export function loadLastCompaction(session: SessionPaths): LastCompaction | null {
  const path = joinPath(session.dir, RECORD_FILE);
  // Most sessions have not compacted: asked first, as a failed read costs an exception on every status line render.
  if (!existsSync(path)) return null;
  const record = readJsonNoFollow(path) as LastCompaction | null;
  return Number.isInteger(record?.seq) && typeof record?.startedMs === "number" ? record : null;
}

/** A measurement taken by a process that started at `startedMs` is from before `record`'s compaction. */
export function predatesCompaction(startedMs: number | undefined, record: LastCompaction | null): boolean {
  // Clock ticks are 10 ms: a process started in PostCompact's own tick counts as before it.
  return record !== null && (startedMs === undefined || startedMs <= record.startedMs);
}
