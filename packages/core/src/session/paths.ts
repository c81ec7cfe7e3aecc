import { join, resolve } from "node:path";
import { type Env, tmpDir } from "../env.ts";
import { carryoverRoot, claudeDir } from "../claude/paths.ts";
import { assertSafeSessionId } from "../claude/session-id.ts";
import { ensurePrivateDir } from "../fs/private-dir.ts";

export function sessionDirPath(env: Env, sessionId: string): string {
  return join(carryoverRoot(env), "sessions", assertSafeSessionId(sessionId));
}

/** The session's private state dir, created 0700 and checked (no symlinks, ours, not shared). */
export function ensureSessionDir(env: Env, sessionId: string): string {
  return ensurePrivateDir(claudeDir(env), "carryover", "sessions", assertSafeSessionId(sessionId));
}

/** The seeds' default home of compact-prep state files: `${TMPDIR:-/tmp}/claude-compact-state`. */
export function defaultStateDir(env: Env): string {
  return join(tmpDir(env), "claude-compact-state");
}

/** `<stateDir>/<session_id>.md`; `stateDir` comes from config (`stateDir`) or the default. */
export function compactStatePath(env: Env, sessionId: string, stateDir?: string): string {
  return join(stateDir ? resolve(stateDir) : defaultStateDir(env), `${assertSafeSessionId(sessionId)}.md`);
}

/** The pre-compact hook's mechanical snapshot: compact-prep's headers, filled from the transcript. */
export function mechanicalSnapshotPath(env: Env, sessionId: string): string {
  return join(sessionDirPath(env, sessionId), "snapshot.md");
}
