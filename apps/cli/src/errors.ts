import { CarryoverError } from "@carryover/core";

/** A failure the CLI's top prints as one line; `exitCode` 2 marks bad usage, 1 anything else. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, 2);
}

const ERRNO_WORDS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  ENAMETOOLONG: "file name too long",
  ENOENT: "no such file or directory",
  ENOTDIR: "a parent is not a directory",
  EISDIR: "is a directory",
  ELOOP: "too many symlinks",
};

const ERRNO_FIXES: Record<string, string> = {
  EACCES: "check its owner and mode, or choose another --scope",
  EPERM: "check its owner and mode, or choose another --scope",
  EROFS: "choose another --scope",
  ENOSPC: "free some space and run it again",
  EDQUOT: "free some space and run it again",
  ENAMETOOLONG: "use a shorter path",
};

/** One line for whatever was thrown: file system errors name the path and say what to do. */
export function describeError(error: unknown): string {
  if (error instanceof CliError || error instanceof CarryoverError) return error.message;
  const errno = error as NodeJS.ErrnoException & { dest?: string };
  if (errno && typeof errno.code === "string" && typeof errno.path === "string") {
    const fix = ERRNO_FIXES[errno.code];
    const what =
      errno.syscall === "copyfile" && errno.dest
        ? `copy ${errno.path} to ${errno.dest}`
        : `${errno.syscall ?? "access"} ${errno.path}`;
    return `cannot ${what}: ${ERRNO_WORDS[errno.code] ?? errno.code}${fix ? `; ${fix}` : ""}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export function exitCodeOf(error: unknown): number {
  return error instanceof CliError ? error.exitCode : 1;
}
