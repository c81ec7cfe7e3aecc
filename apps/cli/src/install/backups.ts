import { createHash } from "node:crypto";
import { constants, copyFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { carryoverRoot, dirNames, type Env, ensurePrivateDir } from "@carryover/core";
import type { Palette } from "../output/color.ts";
import { tildify } from "../output/display.ts";

/** How many backups of one file are kept; older ones are removed once a change succeeded. */
const BACKUPS_KEPT = 5;

// A name stays far below NAME_MAX (255) whatever the path: the stamp, the path's tail, a hash of the whole path.
const TAIL_CHARS = 80;

function flat(path: string): string {
  return path.replace(/[^A-Za-z0-9._-]/g, "_");
}

function pathHash(path: string): string {
  return createHash("sha256").update(path).digest("hex").slice(0, 12);
}

export function backupsDir(env: Env): string {
  return join(carryoverRoot(env), "backups");
}

/** The lines install and uninstall print for the backups a change made. */
export function describeBackups(backups: readonly string[], env: Env, colors: Palette): string {
  const kept = `the last ${BACKUPS_KEPT} backups of each file are kept`;
  return backups
    .map((backup) => colors.dim(`backup of the previous file: ${tildify(backup, env)} (${kept})\n`))
    .join("");
}

/** Copies `path` into the backups dir, as `<time>_<end of the path>_<hash of the path>`; returns the copy's path. */
export function backUp(path: string, env: Env, nowMs: number): string {
  const dir = ensurePrivateDir(carryoverRoot(env), "backups");
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, "-");
  const name = `${stamp}_${flat(path).slice(-TAIL_CHARS)}_${pathHash(path)}`;
  for (let n = 0; ; n++) {
    const copy = join(dir, n === 0 ? name : `${name}.${n}`);
    try {
      copyFileSync(path, copy, constants.COPYFILE_EXCL);
      return copy;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

/**
 * Removes all but the newest BACKUPS_KEPT backups of `path`, those named as above and those earlier versions
 * named `<time><the whole path flattened>`.
 */
export function pruneBackups(path: string, env: Env): void {
  const hash = `_${pathHash(path)}`;
  const legacy = flat(path);
  const mine = dirNames(backupsDir(env))
    .filter((name) => name.replace(/\.\d+$/, "").endsWith(hash) || name.slice(24) === legacy)
    .map((name) => ({
      path: join(backupsDir(env), name),
      mtimeNs: statSync(join(backupsDir(env), name), { bigint: true }).mtimeNs,
    }))
    .sort((a, b) => (a.mtimeNs < b.mtimeNs ? -1 : a.mtimeNs > b.mtimeNs ? 1 : a.path.localeCompare(b.path)));
  for (const { path: old } of mine.slice(0, -BACKUPS_KEPT)) unlinkSync(old);
}
