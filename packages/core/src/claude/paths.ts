import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { type Env, homeDir } from "../env.ts";
import { CarryoverError } from "../errors.ts";
import { joinPath } from "../fs/join-path.ts";
import { assertPrivateDir, checkPrivateDirs, ensurePrivateDir } from "../fs/private-dir.ts";
import { assertSafeSessionId } from "./session-id.ts";
import { projectSlug } from "./slug.ts";

/** `~/.claude`, or `CLAUDE_CONFIG_DIR` when Claude Code is pointed elsewhere. */
export function claudeDir(env: Env): string {
  return env.CLAUDE_CONFIG_DIR ? resolve(env.CLAUDE_CONFIG_DIR) : joinPath(homeDir(env), ".claude");
}

/** carryover's own root: config, logs, per-session state, installed executables. */
export function carryoverRoot(env: Env): string {
  return joinPath(claudeDir(env), "carryover");
}

export function userConfigPath(env: Env): string {
  return joinPath(carryoverRoot(env), "config.json");
}

export function projectConfigPath(projectDir: string): string {
  return joinPath(projectDir, ".claude", "carryover", "config.json");
}

export function logPath(env: Env): string {
  return joinPath(carryoverRoot(env), "log", "carryover.log");
}

export function binDir(env: Env): string {
  return joinPath(carryoverRoot(env), "bin");
}

/** Where `withFileLock` keeps carryover's locks: `~/.claude/carryover/locks/`, made private on first use. */
export function ensureLockDir(env: Env): string {
  return ensureCarryoverDir(env, "locks");
}

/** The fallback log, beside carryover's root: where a refusal of the root itself can still be read. */
export function refusedRootLogPath(env: Env): string {
  return joinPath(claudeDir(env), "carryover.log");
}

/**
 * Creates `~/.claude/carryover/…segments` 0700, each dir checked as `ensurePrivateDir` checks it, and returns the
 * path. The root may be a symlink, as GNU stow leaves it when a user keeps carryover's config in a dotfiles repo: the
 * link is the user's own (only they can write ~/.claude), so it is followed when its target is a dir they own that
 * nobody else can write, and refused otherwise, naming the link and its target.
 */
export function ensureCarryoverDir(env: Env, ...segments: string[]): string {
  const root = carryoverRoot(env);
  if (!lstatSync(root, { throwIfNoEntry: false })?.isSymbolicLink()) {
    return ensurePrivateDir(claudeDir(env), "carryover", ...segments);
  }
  ensurePrivateDir(linkedRoot(root), ...segments);
  return joinPath(root, ...segments);
}

/**
 * Checks carryover's root as `ensureCarryoverDir` does, creating nothing: returns the dir the hooks write in (a
 * stowed link's target), or throws the refusal they log. A root that does not exist yet is fine.
 */
export function checkCarryoverRoot(env: Env): string {
  const root = carryoverRoot(env);
  if (lstatSync(root, { throwIfNoEntry: false })?.isSymbolicLink()) return linkedRoot(root);
  checkPrivateDirs(claudeDir(env), "carryover");
  return root;
}

function linkedRoot(root: string): string {
  let target: string;
  try {
    target = realpathSync(root);
  } catch {
    const missing = readlinkSync(root);
    throw new CarryoverError("UNSAFE_PATH", `refusing ${root}: it is a symlink to ${missing}, which does not exist`);
  }
  try {
    assertPrivateDir(target);
  } catch (error) {
    const reason = (error as Error).message.replace(`refusing ${target}: `, "").replace(/^it is /, "");
    throw new CarryoverError("UNSAFE_PATH", `refusing ${root}: it is a symlink to ${target}, which is ${reason}`);
  }
  return target;
}

/**
 * Claude Code's own per-user temp dir, the one place a Bash command in its sandbox may write outside the project:
 * `<CLAUDE_CODE_TMPDIR, else TMPDIR, TMP, TEMP or /tmp>/claude-<uid>` (2.1.332, read from the binary and observed).
 * Inside the sandbox (`SANDBOX_RUNTIME=1`) Claude Code has already set CLAUDE_CODE_TMPDIR and TMPDIR to that dir.
 * Claude Code makes it 0700 and refuses to start when another user made it first.
 */
export function claudeTempDir(env: Env): string {
  if (env.SANDBOX_RUNTIME === "1" && env.CLAUDE_CODE_TMPDIR) return withoutTrailingSlash(env.CLAUDE_CODE_TMPDIR);
  const base = env.CLAUDE_CODE_TMPDIR || env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return joinPath(withoutTrailingSlash(base), `claude-${process.getuid?.() ?? 0}`);
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") || "/" : path;
}

export function projectsDir(env: Env): string {
  return joinPath(claudeDir(env), "projects");
}

/** Where Claude Code keeps a session's transcript: keyed by the slug of the session's cwd. */
export function transcriptPath(env: Env, cwd: string, sessionId: string): string {
  return joinPath(projectsDir(env), projectSlug(resolve(cwd)), `${assertSafeSessionId(sessionId)}.jsonl`);
}

export function tasksDir(env: Env, sessionId: string): string {
  return joinPath(claudeDir(env), "tasks", assertSafeSessionId(sessionId));
}

export function plansDir(env: Env): string {
  return joinPath(claudeDir(env), "plans");
}
