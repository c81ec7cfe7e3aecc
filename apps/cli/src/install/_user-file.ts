import {
  accessSync,
  closeSync,
  constants,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readlinkSync,
  writeSync,
} from "node:fs";
import { dirname, resolve } from "node:path";
import { CliError } from "../errors.ts";

// Linux gives up on a chain of links after 40 as well (ELOOP).
const MAX_LINKS = 40;

/** Where a write of a user's file lands, and how. */
export interface WriteTarget {
  /** The file itself: `path`, or the end of its chain of symlinks (which may not exist yet). */
  path: string;
  /** It has other hard links: a rename would split them, so it is written in place. */
  inPlace: boolean;
  /** Its mode, when it exists. */
  mode: number | null;
}

/**
 * The file a write of `path` should change. A symlinked settings.json (a dotfiles repo) is written through,
 * even when its target does not exist yet, and the link stays a link. A read-only file is refused: whoever
 * made it so did not want tools to change it.
 */
export function writeTarget(path: string): WriteTarget {
  let current = path;
  for (let links = 0; ; links++) {
    const stat = lstatSync(current, { throwIfNoEntry: false });
    if (!stat) return { path: current, inPlace: false, mode: null };
    if (stat.isSymbolicLink()) {
      if (links === MAX_LINKS) throw new CliError(`${path}: more than ${MAX_LINKS} symlinks in a row; fix the link`);
      current = resolve(dirname(current), readlinkSync(current));
      continue;
    }
    const shown = current === path ? path : `${path} (→ ${current})`;
    if (!stat.isFile())
      throw new CliError(`${shown} is not a regular file; move it away and run it again (nothing was written)`);
    const mode = stat.mode & 0o777;
    if ((mode & 0o200) === 0) {
      throw new CliError(
        `${shown} is read-only (mode ${mode.toString(8).padStart(4, "0")}); carryover leaves it alone: ` +
          `make it writable (chmod u+w) and run it again (nothing was written)`,
      );
    }
    // Writable by its owner but not by this user (another's file in a dir this user may write): a rename would
    // replace it all the same, so refuse as the read-only case does.
    accessSync(current, constants.W_OK);
    return { path: current, inPlace: stat.nlink > 1, mode };
  }
}

/** Replaces the bytes of a file that has other hard links, keeping its inode so every name sees them. */
export function writeInPlace(path: string, data: string | Uint8Array): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  const fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW);
  try {
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset, offset);
    ftruncateSync(fd, bytes.length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
