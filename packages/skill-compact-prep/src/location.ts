import { compactStatePath, type Env, ensureCompactStateDir, loadConfig, stampCompactState } from "@carryover/core";

export interface StateLocation {
  path: string;
  /** Makes the state dir 0700 and refuses one that is a symlink, not ours, or writable by others. */
  ensureDir(): void;
  /** Notes the compactions counted so far beside the state: the hooks order the state by that, not by its mtime. */
  stamp(): void;
  /** Config problems (file or env var, key, expected): reported, and the default stands. */
  problems: string[];
}

/** The session's state file: `<stateDir>/<session_id>.md`, stateDir from carryover's config or core's default. */
export function locateState(sessionId: string, env: Env, cwd: string): StateLocation {
  // Bash tool commands get no CLAUDE_PROJECT_DIR (2.1.332); their cwd is the project.
  const config = loadConfig("", {}, env, env.CLAUDE_PROJECT_DIR || cwd);
  const stateDir = config.shared.stateDir || undefined;
  return {
    path: compactStatePath(env, sessionId, stateDir),
    ensureDir: () => void ensureCompactStateDir(env, stateDir),
    stamp: () => stampCompactState(env, sessionId, stateDir),
    problems: config.problems,
  };
}
