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
  ENOENT: "no such file or directory",
  ENOTDIR: "a parent is not a directory",
  EISDIR: "is a directory",
  ELOOP: "too many symlinks",
};

/** One line for whatever was thrown: file system errors name the path and say what to do. */
export function describeError(error: unknown): string {
  if (error instanceof CliError || error instanceof CarryoverError) return error.message;
  const errno = error as NodeJS.ErrnoException;
  if (errno && typeof errno.code === "string" && typeof errno.path === "string") {
    const words = ERRNO_WORDS[errno.code] ?? errno.code;
    const hint = errno.code === "EACCES" || errno.code === "EPERM" ? "; check its owner and mode, or choose another --scope" : "";
    return `cannot ${errno.syscall ?? "access"} ${errno.path}: ${words}${hint}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export function exitCodeOf(error: unknown): number {
  return error instanceof CliError ? error.exitCode : 1;
}
