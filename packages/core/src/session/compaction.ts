import type { Env } from "../env.ts";
import { ANNOUNCED_MARKER_PREFIX, LEVEL_MARKER_PREFIX } from "./levels.ts";
import { consumeMarker, hasMarker, listMarkers, type Marker, readMarker, removeMarker, writeMarker } from "./markers.ts";

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

export function markCompacted(env: Env, sessionId: string, facts: CompactionFacts, nowMs: number): void {
  writeMarker(env, sessionId, COMPACTED_MARKER, facts, nowMs);
}

export function hasPendingCompaction(env: Env, sessionId: string): boolean {
  return hasMarker(env, sessionId, COMPACTED_MARKER);
}

export function recordRecoveryDelivered(env: Env, sessionId: string, promptId: string | undefined, nowMs: number): void {
  writeMarker(env, sessionId, RECOVERY_DELIVERED_MARKER, { promptId }, nowMs);
  removeMarker(env, sessionId, COMPACTED_MARKER);
}

/**
 * Takes the compaction marker (exactly once across concurrent callers) and returns it only when no
 * channel has delivered recovery for that compaction yet. SessionStart(compact) fires before
 * PostCompact in 2.1.332 and after it elsewhere, so both orders end in one delivery.
 */
export function takePendingCompaction(env: Env, sessionId: string, nowMs: number, maxAgeMs: number): Marker<CompactionFacts> | null {
  const compacted = consumeMarker<CompactionFacts>(env, sessionId, COMPACTED_MARKER, { nowMs, maxAgeMs });
  if (!compacted) return null;
  const delivered = readMarker<{ promptId?: string }>(env, sessionId, RECOVERY_DELIVERED_MARKER, { nowMs, maxAgeMs });
  if (delivered && isSameCompaction(compacted, delivered)) return null;
  return compacted;
}

function isSameCompaction(compacted: Marker<CompactionFacts>, delivered: Marker<{ promptId?: string }>): boolean {
  if (compacted.data.promptId && delivered.data.promptId) return compacted.data.promptId === delivered.data.promptId;
  return Math.abs(compacted.createdAtMs - delivered.createdAtMs) <= SAME_COMPACTION_WINDOW_MS;
}

/** After a compaction the context is small again: every level may be announced anew. */
export function rearmLevels(env: Env, sessionId: string): void {
  const names = [...listMarkers(env, sessionId, LEVEL_MARKER_PREFIX), ...listMarkers(env, sessionId, ANNOUNCED_MARKER_PREFIX)];
  for (const name of names) removeMarker(env, sessionId, name);
}
