import { type Env, readCompactState, sectionText } from "@carryover/core";

/** The session's /compact-prep state file as far as this compaction is concerned. */
export interface PrepState {
  path: string;
  savedAtMs: number;
  /** Written by /compact-prep (not by carryover), complete, filled in, and saved after the previous compaction. */
  fresh: boolean;
  decisions: string | null;
  constraints: string | null;
}

/** The session's state file; `sinceMs` is the previous compaction's time (null: none), before which a save is stale. */
export function readPrepState(env: Env, sessionId: string, stateDir: string, sinceMs: number | null): PrepState | null {
  const state = readCompactState(env, sessionId, stateDir || undefined);
  if (!state) return null;
  const { path, savedAtMs, sections, mechanical } = state;
  const written = !mechanical && state.verification.ok && !state.unfilled;
  return {
    path,
    savedAtMs,
    fresh: written && (sinceMs === null || savedAtMs > sinceMs),
    decisions: mechanical ? null : sectionText(sections, "## Session Decisions"),
    constraints: mechanical ? null : sectionText(sections, "## Constraints and Blockers"),
  };
}
