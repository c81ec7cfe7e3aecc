import { mkdirSync } from "node:fs";
import { claudeDir, withFileLock } from "@carryover/core";
import type { ParsedArgs } from "../args.ts";
import { installRecordPath } from "./record.ts";
import type { Io } from "../io.ts";

// Copying the executables takes well under a second; past this another install is stuck, not busy.
const WAIT_MS = 30_000;

/**
 * install and uninstall read settings.json and the install record, then write both: two running at once
 * would each write what it read plus its own entries, and one's entries would be lost. A dry run writes
 * nothing, so it takes no lock.
 */
export function underInstallLock(args: ParsedArgs, io: Io, run: () => number): number {
  if (args.flags["dry-run"]) return run();
  // Beside settings.json, not in carryover's dir: an install that fails must leave no carryover dir behind.
  const lockDir = claudeDir(io.env);
  mkdirSync(lockDir, { recursive: true });
  try {
    return withFileLock(lockDir, installRecordPath(io.env), run, { timeoutMs: WAIT_MS });
  } catch (error) {
    // Writing the lock (a full disk) fails without a path; the one line the user gets should name the dir.
    if (typeof (error as NodeJS.ErrnoException).code === "string") (error as NodeJS.ErrnoException).path ??= lockDir;
    throw error;
  }
}
