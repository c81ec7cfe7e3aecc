import {
  type Env,
  loadLastCompaction,
  orderStateByCount,
  readCompactState,
  type Session,
  sectionText,
} from "@carryover/core";

/** The session's /compact-prep state file as far as this compaction is concerned. */
export interface PrepState {
  path: string;
  savedAtMs: number;
  /** Written by /compact-prep (not by carryover), complete, filled in, and saved after the previous compaction. */
  fresh: boolean;
  /** Saved before the previous compaction: it may describe an earlier stage of the work. */
  predatesPrevious: boolean;
  decisions: string | null;
  constraints: string | null;
}

/** This compaction, and when the previous one was by the wall clock (null: none). */
export interface PrepQuery {
  compaction: { promptId?: string | undefined; atMs: number };
  previousAtMs: number | null;
}

/**
 * The session's state file. Saved after the previous compaction by PostCompact's count when the state has a stamp
 * (`carryover-state init`): a compaction recorded while the clock ran fast must not make a later save look older.
 * Without one, by its mtime against the previous compaction's time.
 */
export function readPrepState(env: Env, session: Session, stateDir: string, query: PrepQuery): PrepState | null {
  const state = readCompactState(env, session.id, stateDir || undefined);
  if (!state) return null;
  const { path, savedAtMs, sections, mechanical } = state;
  const written = !mechanical && state.verification.ok && !state.unfilled;
  const order = orderStateByCount(state.stamp, loadLastCompaction(session), query.compaction);
  const sincePrevious = order
    ? order !== "before-previous"
    : query.previousAtMs === null || savedAtMs > query.previousAtMs;
  return {
    path,
    savedAtMs,
    fresh: written && sincePrevious,
    predatesPrevious: !sincePrevious,
    decisions: mechanical ? null : sectionText(sections, "## Session Decisions"),
    constraints: mechanical ? null : sectionText(sections, "## Constraints and Blockers"),
  };
}
