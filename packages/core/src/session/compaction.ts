import type { Session, SessionPaths } from "./session.ts";
import { consumeMarker, hasMarker, type Marker, readMarker, removeMarker, writeMarker } from "./markers.ts";

/** Left by PostCompact; taken by whichever recovery channel delivers first. */
export const COMPACTED_MARKER = "compacted";
/** Left by the channel that delivered, so the other stays silent for the same compaction. */
export const RECOVERY_DELIVERED_MARKER = "recovery-delivered";

export interface CompactionFacts {
  trigger: "manual" | "auto";
  /** Links the compaction's hook events (PreCompact, SessionStart(compact), PostCompact). */
  promptId?: string | undefined;
}

// Without a prompt_id, a delivery this close to the compaction marker counts as the same compaction.
const SAME_COMPACTION_WINDOW_MS = 5 * 60_000;

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
  return { marker, delivered: delivered !== null && isSameCompaction(marker, delivered) };
}

function isSameCompaction(compacted: Marker<CompactionFacts>, delivered: Marker<{ promptId?: string }>): boolean {
  if (compacted.data.promptId && delivered.data.promptId) return compacted.data.promptId === delivered.data.promptId;
  return Math.abs(compacted.createdAtMs - delivered.createdAtMs) <= SAME_COMPACTION_WINDOW_MS;
}
