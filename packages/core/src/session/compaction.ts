import { consumeMarker, hasMarker, type Marker, readMarker, removeMarker, writeMarker } from "./markers.ts";
import type { Session, SessionPaths } from "./session.ts";

/** Left by PostCompact; taken by whichever recovery channel delivers first. */
export const COMPACTED_MARKER = "compacted";
/** Left by the channel that delivered, so the other stays silent for the same compaction. */
export const RECOVERY_DELIVERED_MARKER = "recovery-delivered";

export interface CompactionFacts {
  trigger: "manual" | "auto";
  /** Links the compaction's hook events (PreCompact, SessionStart(compact), PostCompact). */
  promptId?: string | undefined;
}

/**
 * Without prompt ids, facts this close in time are about the same compaction: its SessionStart(compact),
 * PostCompact and compact_boundary all come within seconds of each other, after the summary is written.
 */
export const SAME_COMPACTION_WINDOW_MS = 60_000;

/** Two facts about compactions (markers, ledger entries, boundaries) are about the same one. */
interface CompactionFact {
  promptId?: string | undefined;
  atMs: number;
}

export function isSameCompaction(a: CompactionFact, b: CompactionFact): boolean {
  if (a.promptId && b.promptId) return a.promptId === b.promptId;
  return Math.abs(a.atMs - b.atMs) <= SAME_COMPACTION_WINDOW_MS;
}

export function markCompacted(session: Session, facts: CompactionFacts, nowMs: number): void {
  writeMarker(session, COMPACTED_MARKER, facts, nowMs);
}

export function hasPendingCompaction(session: SessionPaths): boolean {
  return hasMarker(session, COMPACTED_MARKER);
}

export function recordRecoveryDelivered(session: Session, promptId: string | undefined, nowMs: number): void {
  writeMarker(session, RECOVERY_DELIVERED_MARKER, { promptId }, nowMs);
  removeMarker(session, COMPACTED_MARKER);
}

/** A compaction taken from its marker, and whether a recovery channel already recorded delivering it. */
export interface PendingCompaction {
  marker: Marker<CompactionFacts>;
  delivered: boolean;
}

/**
 * Takes the compaction marker, exactly once across concurrent callers. SessionStart(compact) fires before
 * PostCompact in 2.1.332 and after it elsewhere, so in both orders the channel that delivered is known.
 */
export function takePendingCompaction(session: Session, nowMs: number, maxAgeMs: number): PendingCompaction | null {
  const marker = consumeMarker<CompactionFacts>(session, COMPACTED_MARKER, { nowMs, maxAgeMs });
  if (!marker) return null;
  const delivered = readMarker<{ promptId?: string }>(session, RECOVERY_DELIVERED_MARKER, { nowMs, maxAgeMs });
  const factOf = ({ data, createdAtMs }: Marker<{ promptId?: string | undefined }>): CompactionFact => ({
    promptId: data.promptId,
    atMs: createdAtMs,
  });
  return { marker, delivered: delivered !== null && isSameCompaction(factOf(marker), factOf(delivered)) };
}
