import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { CarryoverError } from "../errors.ts";

const { O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

/**
 * Writes through a temp file in the same directory, fsync, then rename: a reader (or a crash)
 * sees the old file or the new one, never a torn one. A symlink at `path` is refused, as readers
 * refuse it; one planted after that check is replaced by the rename, never written through.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink())
    throw new CarryoverError("UNSAFE_PATH", `refusing ${path}: it is a symlink`);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  const fd = openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    writeAll(fd, typeof data === "string" ? Buffer.from(data) : data);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

/**
 * Appends one line in a single write (O_APPEND), so concurrent appenders do not interleave
 * inside a line; a crash can leave a torn last line, which readers of JSONL files skip.
 */
export function appendLine(path: string, line: string, mode = 0o600): void {
  if (line.includes("\n")) throw new CarryoverError("BAD_INPUT", "appendLine takes a single line");
  const fd = openSync(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, mode);
  try {
    writeAll(fd, Buffer.from(`${line}\n`));
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens for reading without following a symlink at the last component; null when the file does not
 * exist, UNSAFE_PATH when it is a symlink.
 */
export function openNoFollow(path: string, extraFlags = 0): number | null {
  try {
    return openSync(path, O_RDONLY | O_NOFOLLOW | extraFlags);
  } catch (error) {
    return missingOrThrow(error, path);
  }
}

/**
 * Reads a file without following a symlink at its last component; null when it does not exist. One
 * native call (utf8 and a numeric flag), where open, read and close from JavaScript would be three.
 * O_NONBLOCK: a FIFO planted at `path` reads as empty instead of
 * blocking the hook.
 */
export function readFileNoFollow(path: string): string | null {
  try {
    // @types/node types `flag` as a string; Node takes the numeric flags as well.
    return readFileSync(path, { encoding: "utf8", flag: (O_RDONLY | O_NOFOLLOW | O_NONBLOCK) as unknown as string });
  } catch (error) {
    return missingOrThrow(error, path);
  }
}

/** A file's JSON, read as `readFileNoFollow` reads; null when it is missing, unreadable, a symlink or not JSON. */
export function readJsonNoFollow(path: string): unknown {
  try {
    return JSON.parse(readFileNoFollow(path) ?? "null");
  } catch {
    return null;
  }
}

/** The names in `dir`; none when it is missing or cannot be read. */
export function dirNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** A failed no-follow open as readers take it: null when it or a parent dir is missing, UNSAFE_PATH for a symlink. */
function missingOrThrow(error: unknown, path: string): null {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return null;
  if (code === "ELOOP") throw new CarryoverError("UNSAFE_PATH", `refusing ${path}: it is a symlink`);
  throw error;
}

function writeAll(fd: number, buffer: Uint8Array): void {
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
}
