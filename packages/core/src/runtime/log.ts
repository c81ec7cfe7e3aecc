import { renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { appendLine } from "../fs/atomic.ts";
import type { Env } from "../env.ts";
import { claudeDir, logPath } from "../claude/paths.ts";
import { ensurePrivateDir } from "../fs/private-dir.ts";

const MAX_LOG_BYTES = 256 * 1024;
const MAX_LINE_CHARS = 2_000;

/**
 * One line into `~/.claude/carryover/log/carryover.log`; past 256 KiB the file rotates to `.1`,
 * so the log never holds more than twice that. Logging never throws.
 */
export function logLine(env: Env, hook: string, message: string, nowMs = Date.now()): void {
  try {
    const dir = ensurePrivateDir(claudeDir(env), "carryover", "log");
    const path = logPath(env);
    try {
      if (statSync(path).size > MAX_LOG_BYTES) renameSync(path, join(dir, "carryover.log.1"));
    } catch {
      // no log yet
    }
    const line = `${new Date(nowMs).toISOString()} ${hook}: ${message.replace(/\s*\n\s*/g, " ")}`;
    appendLine(path, line.slice(0, MAX_LINE_CHARS));
  } catch {
    // a hook must not fail because its log cannot be written
  }
}
