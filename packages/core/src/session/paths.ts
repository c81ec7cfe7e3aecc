import { basename, dirname, isAbsolute, resolve } from "node:path";
import { autoMemoryDir } from "../claude/auto-memory.ts";
import { claudeTempDir } from "../claude/paths.ts";
import { assertSafeSessionId } from "../claude/session-id.ts";
import type { Env } from "../env.ts";
import { CarryoverError } from "../errors.ts";
import { joinPath } from "../fs/join-path.ts";
import { checkPrivateDirs, ensurePrivateDir } from "../fs/private-dir.ts";
import type { SessionPaths } from "./session.ts";

/**
 * Where /compact-prep keeps state files unless `stateDir` is configured: inside Claude Code's own per-user temp dir,
 * the one a sandboxed Bash command may write (`carryover-state` runs there) and that no other user can take first
 * without stopping Claude Code itself. The same path from a hook, a Bash command and a sandboxed one.
 */
export function defaultStateDir(env: Env): string {
  return joinPath(claudeTempDir(env), ...DEFAULT_STATE_SEGMENTS);
}

const DEFAULT_STATE_SEGMENTS = ["carryover", "compact-state"];

/** `<stateDir>/<session_id>.md`; `stateDir` comes from config (`stateDir`) or the default. */
export function compactStatePath(env: Env, sessionId: string, stateDir?: string): string {
  return joinPath(stateDirOf(env, stateDir), `${assertSafeSessionId(sessionId)}.md`);
}

/**
 * The files beside a compact-prep state, in the state dir (the one place `carryover-state` may write with the
 * sandbox on): the copy `init --force` keeps, and the stamp that orders the state against compactions.
 */
export function compactStateCompanions(statePath: string): { backup: string; stamp: string } {
  return { backup: `${statePath}.bak`, stamp: `${statePath}.meta` };
}

/**
 * Creates the state dir 0700 and checks it: the default from the temp dir it is in down (Claude Code's per-user
 * dir included), a configured one itself. Returns its path.
 */
export function ensureCompactStateDir(env: Env, stateDir?: string): string {
  const { base, segments } = stateDirWalk(env, stateDir);
  return withTempDirHint(env, () => ensurePrivateDir(base, ...segments));
}

/** Checks the state dir as `ensureCompactStateDir` does, creating nothing; false when it does not exist. */
export function checkCompactStateDir(env: Env, stateDir?: string): boolean {
  const { base, segments } = stateDirWalk(env, stateDir);
  return withTempDirHint(env, () => checkPrivateDirs(base, ...segments));
}

function stateDirOf(env: Env, stateDir: string | undefined): string {
  return stateDir ? resolve(stateDir) : defaultStateDir(env);
}

// A temp dir is shared, so every dir from it down is checked; a configured dir's parent is the user's choice.
function stateDirWalk(env: Env, stateDir: string | undefined): { base: string; segments: string[] } {
  if (stateDir) {
    const dir = resolve(stateDir);
    return { base: dirname(dir), segments: [basename(dir)] };
  }
  const temp = claudeTempDir(env);
  return { base: dirname(temp), segments: [basename(temp), ...DEFAULT_STATE_SEGMENTS] };
}

/** Runs `walk`; Claude Code's temp dir owned by another user gets the hint of what to do. */
function withTempDirHint<T>(env: Env, walk: () => T): T {
  try {
    return walk();
  } catch (error) {
    const temp = claudeTempDir(env);
    // Claude Code itself refuses to start with that dir owned by another user (a mode it only fixes).
    if (!(error instanceof CarryoverError) || !error.message.startsWith(`refusing ${temp}: owned by`)) throw error;
    const hint = "Claude Code refuses it too: set CLAUDE_CODE_TMPDIR to a directory you control";
    throw new CarryoverError(error.code, `${error.message}; ${hint}`);
  }
}

/** The changes log's path from the shared `changesFile` setting (relative to the project); null when it is off. */
export function changesLogPath(projectDir: string, changesFile: string): string | null {
  if (!changesFile) return null;
  return isAbsolute(changesFile) ? changesFile : joinPath(projectDir, changesFile);
}

/** The pre-compact hook's mechanical snapshot: compact-prep's headers, filled from the transcript. */
export function mechanicalSnapshotPath(session: SessionPaths): string {
  return joinPath(session.dir, "snapshot.md");
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
  return [state, compactStateCompanions(state).backup, autoMemoryDir(env, query.cwd), ...(changes ? [changes] : [])];
}
