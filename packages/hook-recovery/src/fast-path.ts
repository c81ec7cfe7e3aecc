import { type FastPathContext, hasPendingCompaction } from "@carryover/core";

/** Nothing to do: a SessionStart other than compact, or a prompt with no compaction pending (one stat). */
export function nothingToRecover({ payload, env }: FastPathContext): boolean {
  if (payload.hook_event_name === "SessionStart") return payload.source !== "compact";
  return !hasPendingCompaction(env, payload.session_id);
}
