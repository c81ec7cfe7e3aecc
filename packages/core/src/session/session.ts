import { carryoverRoot, ensureCarryoverDir } from "../claude/paths.ts";
import { assertSafeSessionId } from "../claude/session-id.ts";
import type { Env } from "../env.ts";
import { joinPath } from "../fs/join-path.ts";
import { ensurePrivateDir } from "../fs/private-dir.ts";

/** Where one session's state lives, `~/.claude/carryover/sessions/<id>`: paths only, nothing created or checked. */
export interface SessionPaths {
  readonly env: Env;
  readonly id: string;
  readonly dir: string;
}

/**
 * A session whose dirs may be written: created 0700 and checked (no symlink, ours, not writable by others) on
 * first use and trusted for the rest of the process, so the operations of one hook run do not walk them again.
 */
export interface Session extends SessionPaths {
  /** The dir, created and checked on the first call. */
  ensureDir(): string;
  /** Its `markers` dir, likewise. */
  ensureMarkersDir(): string;
}

/** The session `sessionId` names, to read from; throws BAD_SESSION_ID for anything but a safe token. */
export function sessionPaths(env: Env, sessionId: string): SessionPaths {
  const id = assertSafeSessionId(sessionId);
  return { env, id, dir: joinPath(carryoverRoot(env), "sessions", id) };
}

/** The session `sessionId` names, to read from and write to. Creates nothing until something is written. */
export function openSession(env: Env, sessionId: string): Session {
  const { id, dir } = sessionPaths(env, sessionId);
  let dirChecked = false;
  let markersChecked = false;
  const ensureDir = (): string => {
    if (!dirChecked) ensureCarryoverDir(env, "sessions", id);
    dirChecked = true;
    return dir;
  };
  return {
    env,
    id,
    dir,
    ensureDir,
    ensureMarkersDir: () => {
      if (!markersChecked) ensurePrivateDir(ensureDir(), "markers");
      markersChecked = true;
      return joinPath(dir, "markers");
    },
  };
}
