import { closeSync, constants, ftruncateSync, openSync, writeSync } from "node:fs";
import { CarryoverError } from "../errors.ts";

const { O_WRONLY, O_CREAT, O_NOFOLLOW, O_NONBLOCK } = constants;

/** A file written in place is one page, which a single write never splits (a kill leaves it whole or untouched). */
export const IN_PLACE_BYTES = 4096;

/**
 * Replaces a small JSON file's text with one write of a whole page at offset 0: the text padded with
 * spaces (JSON.parse ignores them), so no old byte is left past it and the file's size never changes.
 * For a file rewritten on every response: on ext4 a rename over an existing file starts the new file's
 * writeback (RELIABILITY.md), where this is one open and one write. A kill leaves the old text or the
 * new; a reader racing the write may see a mix of the two, which it must parse as it would any text. A
 * symlink, a directory or a FIFO at `path` is refused; the file is not fstat'ed (one more call on every
 * render): it lives in a private dir checked when it was made, where nobody else can put
 * another user's file or a device. Without `create`, a missing file is an ENOENT error.
 */
export function overwriteInPlace(
  path: string,
  text: string,
  { create = true, mode = 0o600 }: { create?: boolean; mode?: number } = {},
): void {
  const bytes = Buffer.byteLength(text);
  if (bytes > IN_PLACE_BYTES)
    throw new CarryoverError("BAD_INPUT", `${path}: ${bytes} bytes is too large to overwrite in place`);
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted at the path fails instead of blocking the hook.
    fd = openSync(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | (create ? O_CREAT : 0), mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP")
      throw new CarryoverError("UNSAFE_PATH", `refusing ${path}: it is a symlink`);
    throw error;
  }
  try {
    if (writeSync(fd, text + " ".repeat(IN_PLACE_BYTES - bytes), 0) !== IN_PLACE_BYTES)
      throw new CarryoverError("IO", `${path}: short write`);
    // A no-op but for a file someone else made larger: its tail would follow the new text.
    ftruncateSync(fd, IN_PLACE_BYTES);
  } finally {
    closeSync(fd);
  }
}
