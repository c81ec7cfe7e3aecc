import { join, resolve } from "node:path";
import { type Env, homeDir } from "../env.ts";
import { findGitRoot } from "../fs/git-root.ts";
import { ensurePrivateDir } from "../fs/private-dir.ts";
import { assertSafeSessionId } from "./session-id.ts";
import { projectSlug } from "./slug.ts";

/** `~/.claude`, or `CLAUDE_CONFIG_DIR` when Claude Code is pointed elsewhere. */
export function claudeDir(env: Env): string {
  return env.CLAUDE_CONFIG_DIR ? resolve(env.CLAUDE_CONFIG_DIR) : join(homeDir(env), ".claude");
}

/** carryover's own root: config, logs, per-session state, installed executables. */
export function carryoverRoot(env: Env): string {
  return join(claudeDir(env), "carryover");
}

export function userConfigPath(env: Env): string {
  return join(carryoverRoot(env), "config.json");
}

export function projectConfigPath(projectDir: string): string {
  return join(projectDir, ".claude", "carryover", "config.json");
}

export function logPath(env: Env): string {
  return join(carryoverRoot(env), "log", "carryover.log");
}

export function binDir(env: Env): string {
  return join(carryoverRoot(env), "bin");
}

/** Where `withFileLock` keeps carryover's locks: `~/.claude/carryover/locks/`, made private on first use. */
export function ensureLockDir(env: Env): string {
  return ensurePrivateDir(claudeDir(env), "carryover", "locks");
}

export function projectsDir(env: Env): string {
  return join(claudeDir(env), "projects");
}

/** Where Claude Code keeps a session's transcript: keyed by the slug of the session's cwd. */
export function transcriptPath(env: Env, cwd: string, sessionId: string): string {
  return join(projectsDir(env), projectSlug(resolve(cwd)), `${assertSafeSessionId(sessionId)}.jsonl`);
}

/** The auto-memory dir Claude Code loads MEMORY.md from: keyed by the git root (or cwd outside git). */
export function autoMemoryDir(env: Env, cwd: string): string {
  const root = findGitRoot(cwd) ?? resolve(cwd);
  return join(projectsDir(env), projectSlug(root), "memory");
}

export function tasksDir(env: Env, sessionId: string): string {
  return join(claudeDir(env), "tasks", assertSafeSessionId(sessionId));
}

export function plansDir(env: Env): string {
  return join(claudeDir(env), "plans");
}
