import { accessSync, constants, copyFileSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmdirSync, statSync, symlinkSync, unlinkSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { carryoverRoot, type Env, ensurePrivateDir, writeFileAtomic } from "@carryover/core";
import type { Palette } from "../output/color.ts";
import { sha256Of } from "../release/manifest.ts";
import { unifiedDiff } from "./_unified-diff.ts";

/** A whole-file edit of a text file; `after: null` deletes it. `internal` files (carryover's own records) show no diff. */
export interface TextChange {
  kind: "text";
  path: string;
  before: string | null;
  after: string | null;
  internal?: boolean;
  /** The file got its exact bytes from before carryover back (or was removed because it did not exist). */
  restored?: boolean;
}

/** An executable or skill file copied in from a release. */
interface CopyChange {
  kind: "copy";
  path: string;
  data: Uint8Array;
  mode: number;
}

interface RemoveChange {
  kind: "remove";
  path: string;
}

/** Removes a directory carryover made, only once it is empty. */
interface RemoveDirChange {
  kind: "rmdir";
  path: string;
}

/** A symbolic link to `target` (the Node the executables start, beside them). */
export interface LinkChange {
  kind: "link";
  path: string;
  target: string;
}

export type Change = TextChange | CopyChange | LinkChange | RemoveChange | RemoveDirChange;

/** What `--dry-run` prints: a unified diff per visible text file, one line per other file. */
export function describeChanges(changes: readonly Change[], colors: Palette): string {
  const parts: string[] = [];
  for (const change of changes) {
    if (change.kind === "text" && !change.internal) parts.push(colorDiff(unifiedDiff(change.before, change.after, change.path), colors));
    else if (change.kind === "copy") parts.push(colors.green(`+ ${change.path} (${change.data.length} bytes, sha256 ${sha256Of(change.data).slice(0, 12)}…)\n`));
    else if (change.kind === "link") parts.push(colors.green(`+ ${change.path} -> ${change.target}\n`));
    else if (change.kind === "remove") parts.push(colors.red(`- ${change.path}\n`));
  }
  return parts.join("");
}

function colorDiff(diff: string, colors: Palette): string {
  return diff
    .split("\n")
    .map((line) => (/^(\+\+\+|---)/.test(line) ? colors.bold(line) : line.startsWith("+") ? colors.green(line) : line.startsWith("-") ? colors.red(line) : line.startsWith("@@") ? colors.cyan(line) : line))
    .join("\n");
}

/**
 * Applies changes in the order given. Every target directory is checked for write permission first, so a
 * permission problem stops the run before anything is written. Each existing user file is backed up to
 * `~/.claude/carryover/backups/` before it is replaced; writes are atomic and go through a symlinked
 * settings file to its target (a dotfiles link stays a link). Returns the backup paths.
 */
export function applyChanges(changes: readonly Change[], env: Env, nowMs: number): string[] {
  for (const change of changes) assertWritable(change.path);
  const backups: string[] = [];
  const root = carryoverRoot(env);
  for (const change of changes) {
    if (change.kind === "text") {
      const target = realTarget(change.path);
      if (change.before !== null && !change.internal && change.before !== change.after) backups.push(backup(target, env, nowMs));
      if (change.after === null) removeFile(target);
      else {
        makeParent(target, root);
        writeFileAtomic(target, change.after, existingMode(target) ?? (isInside(target, root) ? 0o600 : 0o644));
      }
    } else if (change.kind === "copy") {
      makeParent(change.path, root);
      writeFileAtomic(change.path, change.data, change.mode);
    } else if (change.kind === "link") {
      makeParent(change.path, root);
      const temp = `${change.path}.${process.pid}.tmp`;
      symlinkSync(change.target, temp);
      renameSync(temp, change.path);
    } else if (change.kind === "remove") removeFile(change.path);
    else removeEmptyDir(change.path);
  }
  return backups;
}

function backup(target: string, env: Env, nowMs: number): string {
  const dir = ensurePrivateDir(carryoverRoot(env), "backups");
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, "-");
  const path = join(dir, `${stamp}${target.replace(/[^A-Za-z0-9._-]/g, "_")}`);
  copyFileSync(target, path);
  return path;
}

/** The file a write should land on: the target of a symlink, or the path itself. */
function realTarget(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path;
  }
}

function assertWritable(path: string): void {
  let dir = dirname(realTarget(path));
  while (true) {
    try {
      statSync(dir);
      break;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return;
      dir = parent;
    }
  }
  accessSync(dir, constants.W_OK);
}

/** carryover's own dirs are private (0700, checked); a project's `.claude/` is made like any dir. */
function makeParent(path: string, root: string): void {
  const parent = dirname(path);
  if (parent === root || isInside(parent, root)) ensurePrivateDir(dirname(root), ...relative(dirname(root), parent).split(sep));
  else mkdirSync(parent, { recursive: true });
}

function isInside(path: string, dir: string): boolean {
  return path.startsWith(dir + sep);
}

function existingMode(path: string): number | null {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return null;
  }
}

function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

function removeEmptyDir(path: string): void {
  try {
    if (readdirSync(path).length === 0) rmdirSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
