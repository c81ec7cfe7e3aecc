import { mkdirSync, readdirSync, rmdirSync } from "node:fs";
import { dirname } from "node:path";
import { claudeDir, withFileLock } from "@carryover/core";
import type { ParsedArgs } from "../args.ts";
import type { Io } from "../io.ts";
import { withSignalsHeld } from "./_signals.ts";
import { installRecordPath } from "./record.ts";

// Copying the executables takes well under a second; past this another install is stuck, not busy.
const WAIT_MS = 30_000;

/**
 * install and uninstall read settings.json and the install record, then write both: two running at once
 * would each write what it read plus its own entries, and one's entries would be lost. A dry run writes
 * nothing, so it takes no lock.
 */
/**
 * `run` gets the dirs taking the lock made, and a list to add dirs to that are removed, if empty, once the lock
 * (a file in ~/.claude) is gone.
 */
export function underInstallLock(
  args: ParsedArgs,
  io: Io,
  run: (madeDirs: readonly string[], removeWhenEmpty: string[]) => number,
): number {
  if (args.flags["dry-run"]) return run([], []);
  // An interrupted run would leave copies no record knows, and its lock file in ~/.claude.
  return withSignalsHeld(() => underLock(io, run));
}

function underLock(io: Io, run: (madeDirs: readonly string[], removeWhenEmpty: string[]) => number): number {
  // Beside settings.json, not in carryover's dir: an install that fails must leave no carryover dir behind.
  const lockDir = claudeDir(io.env);
  const first = mkdirSync(lockDir, { recursive: true });
  // The dirs it made (a HOME where Claude Code never ran has no ~/.claude), outermost first.
  const made: string[] = [];
  const later: string[] = [];
  for (let dir = lockDir; first !== undefined && dir.startsWith(first); dir = dirname(dir)) made.unshift(dir);
  try {
    return withFileLock(lockDir, installRecordPath(io.env), () => run(made, later), { timeoutMs: WAIT_MS });
  } catch (error) {
    // Writing the lock (a full disk) fails without a path; the one line the user gets should name the dir.
    if (typeof (error as NodeJS.ErrnoException).code === "string") (error as NodeJS.ErrnoException).path ??= lockDir;
    throw error;
  } finally {
    // Left empty (a failed install, an uninstall with nothing to do): nothing of carryover's stays behind.
    for (const dir of [...later, ...made].sort((a, b) => b.length - a.length)) removeIfEmpty(dir);
  }
}

function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // gone already, or not ours to remove
  }
}
