import { closeSync, constants, fstatSync, readSync } from "node:fs";
import { CarryoverError } from "../errors.ts";
import { openNoFollow } from "./atomic.ts";

export interface FileHead {
  /** The first bytes of the file, at most the `maxBytes` asked for. */
  bytes: Buffer;
  /** The file's whole size. */
  totalBytes: number;
}

/**
 * Reads at most `maxBytes` from the start of a regular file, without following a symlink at its last
 * component (nor blocking on a FIFO), so a file of any size costs the same. Null when it does not exist.
 */
export function readFileHead(path: string, maxBytes: number): FileHead | null {
  const fd = openNoFollow(path, constants.O_NONBLOCK);
  if (fd === null) return null;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new CarryoverError("UNSAFE_PATH", `refusing ${path}: not a regular file`);
    const bytes = Buffer.allocUnsafe(Math.min(stat.size, maxBytes));
    let read = 0;
    while (read < bytes.length) {
      const count = readSync(fd, bytes, read, bytes.length - read, read);
      if (count === 0) break;
      read += count;
    }
    return { bytes: bytes.subarray(0, read), totalBytes: Math.max(stat.size, read) };
  } finally {
    closeSync(fd);
  }
}
