import { createHash } from "node:crypto";
import { closeSync, constants, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, join } from "node:path";
import { CarryoverError } from "../errors.ts";

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

export interface FileLockOptions {
  /** How long to wait for another holder before giving up. */
  timeoutMs?: number;
  /** A lock older than this is taken over even if its pid is alive (a reused pid). */
  staleMs?: number;
}

const RETRY_MS = 5;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `update` while holding carryover's lock on `target`, so read-modify-write cycles of a file several
 * processes share (a project's changes log written by two sessions' PreCompact, settings.json by two
 * installs) do not lose each other's part. The lock is a file created exclusively in `lockDir`, an existing
 * dir (`ensureLockDir`), never beside the target: a crash must not leave litter in a project.
 */
export function withFileLock<T>(
  lockDir: string,
  target: string,
  update: () => T,
  { timeoutMs = 5_000, staleMs = 60_000 }: FileLockOptions = {},
): T {
  const path = join(
    lockDir,
    `.carryover-${basename(target)}.${createHash("sha256").update(target).digest("hex").slice(0, 12)}.lock`,
  );
  const deadlineMs = Date.now() + timeoutMs;
  for (;;) {
    const fd = tryCreate(path);
    if (fd !== null) {
      try {
        writeSync(fd, `${process.pid} ${target}\n`);
      } catch (error) {
        // A full disk: an empty lock left behind would hold off the next writer for a while, and litter.
        closeSync(fd);
        removeLock(path);
        throw error;
      }
      closeSync(fd);
      break;
    }
    if (isStale(path, staleMs)) {
      removeLock(path);
      continue;
    }
    if (Date.now() >= deadlineMs)
      throw new CarryoverError(
        "IO",
        `${target} is being written by another carryover process (lock ${path}); gave up after ${timeoutMs} ms`,
      );
    Atomics.wait(sleeper, 0, 0, RETRY_MS);
  }
  try {
    return update();
  } finally {
    removeLock(path);
  }
}

function tryCreate(path: string): number | null {
  try {
    return openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw error;
  }
}

// The holder writes its pid right after creating the lock: a lock still empty this long lost its holder in between.
const EMPTY_GRACE_MS = 1_000;

/** Left by a process that is gone (killed holding it), or held longer than any writer takes. */
function isStale(path: string, staleMs: number): boolean {
  try {
    const ageMs = Date.now() - statSync(path).mtimeMs;
    if (ageMs > staleMs) return true;
    const pid = Number.parseInt(readFileSync(path, "utf8"), 10);
    if (!Number.isInteger(pid) || pid <= 0) return ageMs > EMPTY_GRACE_MS;
    return !isAlive(pid);
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function removeLock(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
