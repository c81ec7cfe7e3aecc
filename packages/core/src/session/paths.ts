import { isAbsolute, join, resolve } from "node:path";
import { autoMemoryDir } from "../claude/paths.ts";
import { assertSafeSessionId } from "../claude/session-id.ts";
import { type Env, tmpDir } from "../env.ts";
import type { SessionPaths } from "./session.ts";

/** The seeds' default home of compact-prep state files: `${TMPDIR:-/tmp}/claude-compact-state`. */
export function defaultStateDir(env: Env): string {
  return join(tmpDir(env), "claude-compact-state");
}

/** `<stateDir>/<session_id>.md`; `stateDir` comes from config (`stateDir`) or the default. */
export function compactStatePath(env: Env, sessionId: string, stateDir?: string): string {
  return join(stateDir ? resolve(stateDir) : defaultStateDir(env), `${assertSafeSessionId(sessionId)}.md`);
}

/** The changes log's path from the shared `changesFile` setting (relative to the project); null when it is off. */
export function changesLogPath(projectDir: string, changesFile: string): string | null {
  if (!changesFile) return null;
  return isAbsolute(changesFile) ? changesFile : join(projectDir, changesFile);
}

/** The pre-compact hook's mechanical snapshot: compact-prep's headers, filled from the transcript. */
export function mechanicalSnapshotPath(session: SessionPaths): string {
  return join(session.dir, "snapshot.md");
}

interface OwnPathsQuery {
  sessionId: string;
  /** Config `stateDir` ("" = default). */
  stateDir: string;
  /** Config `changesFile`, relative to the project ("" = off). */
  changesFile: string;
  projectDir: string;
  cwd: string;
}

/**
 * What carryover itself writes during a session, so a transcript's reading can leave it out of the session's
 * work: the compact-prep state file and its backup, the changes log, the project's auto-memory (its topic
 * files and MEMORY.md).
 */
export function carryoverOwnPaths(env: Env, query: OwnPathsQuery): string[] {
  const state = compactStatePath(env, query.sessionId, query.stateDir || undefined);
  const changes = changesLogPath(query.projectDir, query.changesFile);
  return [state, `${state}.bak`, autoMemoryDir(env, query.cwd), ...(changes ? [changes] : [])];
}
