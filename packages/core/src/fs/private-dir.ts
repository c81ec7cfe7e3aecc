import { lstatSync, mkdirSync, type Stats } from "node:fs";
import { CarryoverError } from "../errors.ts";
import { joinPath } from "./join-path.ts";

const PRIVATE_MODE = 0o700;

/**
 * Creates `base/…segments` with mode 0700 and checks every segment it walks: a symlink, a
 * non-directory, a directory owned by another user or writable by group/others is refused,
 * because marker and state files are trusted by the hooks that read them.
 * `base` itself (a home or temp dir) is trusted. Returns the final path.
 */
export function ensurePrivateDir(base: string, ...segments: string[]): string {
  if (segments.length === 0) mkdirSync(base, { recursive: true, mode: PRIVATE_MODE });
  let current = base;
  let baseMade = false;
  for (const segment of segments) {
    current = joinPath(current, segment);
    // Asked first, made only when missing: these dirs exist on all but the first run, and a failing mkdir
    // costs an exception each time.
    let stat = lstatSync(current, { throwIfNoEntry: false });
    if (!stat) {
      if (!baseMade) mkdirSync(base, { recursive: true, mode: PRIVATE_MODE });
      baseMade = true;
      try {
        mkdirSync(current, { mode: PRIVATE_MODE });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      stat = lstatSync(current);
    }
    checkPrivateDir(current, stat);
  }
  return current;
}

/** Checks `base/…segments` as `ensurePrivateDir` would, creating nothing: false when a segment does not exist. */
export function checkPrivateDirs(base: string, ...segments: string[]): boolean {
  let current = base;
  for (const segment of segments) {
    current = joinPath(current, segment);
    const stat = lstatSync(current, { throwIfNoEntry: false });
    if (!stat) return false;
    checkPrivateDir(current, stat);
  }
  return true;
}

export function assertPrivateDir(path: string): void {
  checkPrivateDir(path, lstatSync(path));
}

function checkPrivateDir(path: string, stat: Stats): void {
  if (stat.isSymbolicLink()) throw new CarryoverError("UNSAFE_PATH", `refusing ${path}: it is a symlink`);
  if (!stat.isDirectory()) throw new CarryoverError("UNSAFE_PATH", `refusing ${path}: not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new CarryoverError("UNSAFE_PATH", `refusing ${path}: owned by uid ${stat.uid}, not ${uid}`);
  }
  if ((stat.mode & 0o022) !== 0) {
    throw new CarryoverError(
      "UNSAFE_PATH",
      `refusing ${path}: writable by others (mode ${(stat.mode & 0o777).toString(8)})`,
    );
  }
}
