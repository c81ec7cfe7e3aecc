import { renameSync, statSync } from "node:fs";
import { ensureCarryoverDir, logPath, refusedRootLogPath } from "../claude/paths.ts";
import type { Env } from "../env.ts";
import { appendLine } from "../fs/atomic.ts";

const MAX_LOG_BYTES = 256 * 1024;
const MAX_LINE_CHARS = 2_000;

/**
 * One line into `~/.claude/carryover/log/carryover.log`; past 256 KiB the file rotates to `.1`,
 * so the log never holds more than twice that. When carryover's root itself is refused (a symlink to a dir others
 * can write), the line goes to `~/.claude/carryover.log`, where the user can still read why. Logging never throws.
 */
export function logLine(env: Env, hook: string, message: string, nowMs = Date.now()): void {
  const text = `${new Date(nowMs).toISOString()} ${hook}: ${message.replace(/\s*\n\s*/g, " ")}`;
  const line = text.slice(0, MAX_LINE_CHARS);
  let path: string;
  try {
    ensureCarryoverDir(env, "log");
    path = logPath(env);
  } catch {
    path = refusedRootLogPath(env);
  }
  try {
    appendRotated(path, line);
  } catch {
    // a hook must not fail because its log cannot be written
  }
}

function appendRotated(path: string, line: string): void {
  try {
    if (statSync(path).size > MAX_LOG_BYTES) renameSync(path, `${path}.1`);
  } catch {
    // no log yet
  }
  appendLine(path, line);
}
