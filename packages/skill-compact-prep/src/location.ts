import { basename, dirname } from "node:path";
import { compactStatePath, ensurePrivateDir, type Env, loadConfig } from "@carryover/core";

export interface StateLocation {
  path: string;
  /** Config problems (file or env var, key, expected): reported, and the default stands. */
  problems: string[];
}

/** The session's state file: `<stateDir>/<session_id>.md`, stateDir from carryover's config. */
export function locateState(sessionId: string, env: Env, cwd: string): StateLocation {
  // Bash tool commands get no CLAUDE_PROJECT_DIR (2.1.332); their cwd is the project.
  const config = loadConfig("", {}, env, env.CLAUDE_PROJECT_DIR || cwd);
  return { path: compactStatePath(env, sessionId, config.shared.stateDir || undefined), problems: config.problems };
}

/** Creates the state dir 0700 and refuses one that is a symlink, not ours, or writable by others (it may be in /tmp). */
export function ensureStateDir(statePath: string): void {
  const dir = dirname(statePath);
  ensurePrivateDir(dirname(dir), basename(dir));
}
