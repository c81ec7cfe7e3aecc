import { lstatSync } from "node:fs";
import { dirname } from "node:path";
import { assertPrivateDir, compactStatePath, type Env, isMechanicalSnapshot, isUnfilledState, readFileNoFollow, stateSections, verifyState } from "@carryover/core";

/** The session's /compact-prep state file as far as this compaction is concerned. */
export interface PrepState {
  path: string;
  savedAtMs: number;
  /** Written by /compact-prep (not by carryover), complete, filled in, and saved after the previous compaction. */
  fresh: boolean;
  decisions: string | null;
  constraints: string | null;
}

const NOTHING = /^(\(none\)|none\.?|n\/a|-|)$/i;

export function readPrepState(env: Env, sessionId: string, stateDir: string, previousCompactionAtMs: number | null): PrepState | null {
  const path = compactStatePath(env, sessionId, stateDir || undefined);
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile()) return null;
  // In a shared TMPDIR another user could have made the dir and planted the file: trust only our private dir.
  assertPrivateDir(dirname(path));
  const text = readFileNoFollow(path);
  if (text === null) return null;
  const sections = stateSections(text);
  const body = (header: "## Session Decisions" | "## Constraints and Blockers") => {
    const value = sections[header]?.trim() ?? "";
    return NOTHING.test(value) ? null : value;
  };
  const written = !isMechanicalSnapshot(text) && verifyState(text).ok && !isUnfilledState(text);
  return {
    path,
    savedAtMs: stat.mtimeMs,
    fresh: written && (previousCompactionAtMs === null || stat.mtimeMs > previousCompactionAtMs),
    decisions: isMechanicalSnapshot(text) ? null : body("## Session Decisions"),
    constraints: isMechanicalSnapshot(text) ? null : body("## Constraints and Blockers"),
  };
}
