import { createHash } from "node:crypto";
import { createMarkerOnce, listMarkers, removeMarker, type Session } from "@carryover/core";

/** One per compaction (its prompt_id hashed): created by whichever recovery channel delivers it. */
export const RECOVERY_CLAIM_PREFIX = "recovery-claim-";

/**
 * Claims the delivery of recovery for the compaction `promptId` names: of channels racing for it
 * (SessionStart(compact), UserPromptSubmit), exactly one gets true, because the delivered marker alone is
 * written after the work and read before it. Without a prompt_id there is no key: true, and the delivered
 * marker's time window decides as before. Claims of earlier compactions are dropped.
 */
export function claimRecovery(session: Session, promptId: string | undefined, nowMs: number): boolean {
  if (!promptId) return true;
  const name = `${RECOVERY_CLAIM_PREFIX}${createHash("sha256").update(promptId).digest("hex").slice(0, 16)}`;
  if (!createMarkerOnce(session, name, { promptId }, nowMs)) return false;
  for (const other of listMarkers(session, RECOVERY_CLAIM_PREFIX)) if (other !== name) removeMarker(session, other);
  return true;
}
