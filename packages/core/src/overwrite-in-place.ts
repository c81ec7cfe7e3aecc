import { closeSync, constants, fstatSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { CarryoverError } from "./errors.ts";

const { O_WRONLY, O_CREAT, O_NOFOLLOW, O_NONBLOCK } = constants;

/** The most this writes in one call: a single write of under a page is never split by a kill. */
export const IN_PLACE_MAX_BYTES = 4096;

/**
 * Replaces a small JSON file's text with one write at offset 0, padded with spaces to the old length so
 * no old byte is left past the new text (JSON.parse ignores trailing whitespace). For a file rewritten
 * on every response: on ext4 a rename over an existing file starts the new file's writeback, measured at
 * 0.2–5 ms here, while this costs one open, one fstat and one write. A kill leaves the old text or the
 * new; a reader racing the write may see a mix of the two, which it must parse as it would any text.
 * A symlink, anything but a regular file, or a file another user owns at `path` is refused. Without
 * `create`, a missing file is an ENOENT error.
 */
export function overwriteInPlace(path: string, text: string, { create = true, mode = 0o600 }: { create?: boolean; mode?: number } = {}): void {
  const bytes = Buffer.from(text);
  if (bytes.length > IN_PLACE_MAX_BYTES) throw new CarryoverError("BAD_INPUT", `${path}: ${bytes.length} bytes is too large to overwrite in place`);
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted at the path fails instead of blocking the hook.
    fd = openSync(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | (create ? O_CREAT : 0), mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw new CarryoverError("UNSAFE_PATH", `refusing ${path}: it is a symlink`);
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new CarryoverError("UNSAFE_PATH", `refusing ${path}: not a regular file`);
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) throw new CarryoverError("UNSAFE_PATH", `refusing ${path}: owned by uid ${stat.uid}, not ${uid}`);
    const padded = stat.size > bytes.length ? Buffer.concat([bytes, Buffer.alloc(Math.min(stat.size, IN_PLACE_MAX_BYTES) - bytes.length, " ")]) : bytes;
    if (writeSync(fd, padded, 0, padded.length, 0) !== padded.length) throw new CarryoverError("IO", `${path}: short write`);
    // Only a file someone else made this large: its tail would follow the new text.
    if (stat.size > padded.length) ftruncateSync(fd, padded.length);
  } finally {
    closeSync(fd);
  }
}
