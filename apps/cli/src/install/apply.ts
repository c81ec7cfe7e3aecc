import {
  accessSync,
  constants,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { carryoverRoot, type Env, ensureCarryoverDir, writeFileAtomic } from "@carryover/core";
import { CliError, describeError } from "../errors.ts";
import { type WriteTarget, writeInPlace, writeTarget } from "./_user-file.ts";
import { backUp, backupsDir, pruneBackups } from "./backups.ts";
import type { Change } from "./changes.ts";

/** A file changed between carryover reading it and writing it (an editor saving it): plan again from its new bytes. */
class ConcurrentEditError extends CliError {
  constructor(readonly path: string) {
    super(`${path} changed while carryover was writing it; nothing was changed, run it again`);
  }
}

/** What undoes one step of a run. */
type Undo =
  | { kind: "unlink"; path: string }
  | { kind: "restore"; path: string; data: Uint8Array; mode: number; inPlace: boolean }
  | { kind: "rmdir"; path: string }
  | { kind: "mkdir"; path: string; mode: number }
  | { kind: "relink"; path: string; target: string };

interface Step {
  change: Change;
  /** Where a user's file is really written (through symlinks); carryover's own files are never followed. */
  target: WriteTarget;
}

/**
 * Applies changes in the order given, all or nothing: every target is checked first (a read-only or unwritable
 * file stops the run before any write), and a failure part way (a full disk, a name too long) undoes what was
 * done, so no executable or skill is left that no record knows. A user's file is backed up before it changes and
 * written atomically, through a symlink to its target, in place when it has other hard links; it must still
 * hold the bytes it was planned from (ConcurrentEditError otherwise). Returns the backups made.
 */
export function applyChanges(
  changes: readonly Change[],
  env: Env,
  nowMs: number,
  { backUpFiles = true }: { backUpFiles?: boolean } = {},
): string[] {
  const steps = changes.map(prepare);
  const undo: Undo[] = [];
  const backups: Array<{ of: string; copy: string }> = [];
  let current: Step | undefined;
  try {
    for (current of steps) run(current, undo, backUpFiles ? backups : null, env, nowMs);
  } catch (error) {
    // A failed write(2) names no path; the one line the user gets should.
    if (current && typeof (error as NodeJS.ErrnoException).code === "string")
      (error as NodeJS.ErrnoException).path ??= current.target.path;
    const left = rollBack(undo);
    if (error instanceof ConcurrentEditError && left.length === 0) throw error;
    const undone = left.length === 0 ? "nothing was changed" : `could not undo: ${left.join("; ")}`;
    throw new CliError(`${describeError(error)} (${undone})`);
  }
  for (const { of } of backups) pruneBackups(of, env);
  return backups.map(({ copy }) => copy);
}

function prepare(change: Change): Step {
  const userFile = change.kind === "text" && !change.internal;
  const target = userFile ? writeTarget(change.path) : { path: change.path, inPlace: false, mode: modeOf(change.path) };
  if (change.kind !== "rmdir") assertWritableDir(dirname(target.path));
  return { change, target };
}

function run(
  step: Step,
  undo: Undo[],
  backups: Array<{ of: string; copy: string }> | null,
  env: Env,
  nowMs: number,
): void {
  const { change, target } = step;
  const root = carryoverRoot(env);
  if (change.kind === "rmdir") {
    const mode = modeOf(change.path);
    if (mode !== null && removeEmptyDir(change.path)) undo.push({ kind: "mkdir", path: change.path, mode });
    return;
  }
  const link = lstatSync(target.path, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(target.path) : null;
  if (change.kind === "link" || (change.kind === "remove" && link !== null)) {
    replaceLink(change, target.path, link, undo, env);
    return;
  }
  const previous = readBytes(target.path);
  if (change.kind === "text") {
    const current = previous === null ? null : previous.toString("utf8");
    if (current !== change.before) throw new ConcurrentEditError(change.path);
    if (backups && previous !== null && !change.internal) {
      for (const dir of makeParent(join(backupsDir(env), "-"), env)) undo.push({ kind: "rmdir", path: dir });
      const copy = backUp(target.path, env, nowMs);
      undo.push({ kind: "unlink", path: copy });
      backups.push({ of: target.path, copy });
    }
  }
  const after = change.kind === "text" ? change.after : change.kind === "copy" ? change.data : null;
  if (after === null) {
    if (previous === null) return;
    unlinkSync(target.path);
    undo.push({ kind: "restore", path: target.path, data: previous, mode: target.mode ?? 0o600, inPlace: false });
    return;
  }
  for (const dir of makeParent(target.path, env)) undo.push({ kind: "rmdir", path: dir });
  const mode = change.kind === "copy" ? change.mode : (target.mode ?? (isInside(target.path, root) ? 0o600 : 0o644));
  if (target.inPlace) writeInPlace(target.path, after);
  else writeFileAtomic(target.path, after, mode);
  if (previous === null) undo.push({ kind: "unlink", path: target.path });
  else
    undo.push({
      kind: "restore",
      path: target.path,
      data: previous,
      mode: target.mode ?? mode,
      inPlace: target.inPlace,
    });
}

/** Makes or removes a symlink (the Node beside the executables), or removes a file with a symlink in its place. */
function replaceLink(change: Change, path: string, link: string | null, undo: Undo[], env: Env): void {
  const previous = link === null ? readBytes(path) : null;
  if (link !== null) undo.push({ kind: "relink", path, target: link });
  else if (previous !== null)
    undo.push({ kind: "restore", path, data: previous, mode: modeOf(path) ?? 0o644, inPlace: false });
  if (change.kind !== "link") {
    if (link !== null || previous !== null) unlinkSync(path);
    return;
  }
  for (const dir of makeParent(path, env)) undo.push({ kind: "rmdir", path: dir });
  const temp = `${path}.${process.pid}.tmp`;
  symlinkSync(change.target, temp);
  renameSync(temp, path);
  if (link === null && previous === null) undo.push({ kind: "unlink", path });
}

/**
 * Undoes in reverse, files carryover made first (on a full disk that frees the room a restore needs); returns what
 * it could not.
 */
function rollBack(undo: readonly Undo[]): string[] {
  const reversed = [...undo].reverse();
  const left: string[] = [];
  for (const step of [
    ...reversed.filter((one) => one.kind === "unlink"),
    ...reversed.filter((one) => one.kind !== "unlink"),
  ]) {
    try {
      if (step.kind === "unlink") unlinkSync(step.path);
      else if (step.kind === "rmdir") rmdirSync(step.path);
      else if (step.kind === "mkdir") mkdirSync(step.path, { mode: step.mode });
      else if (step.kind === "relink") {
        rmSync(step.path, { force: true });
        symlinkSync(step.target, step.path);
      } else if (step.inPlace) writeInPlace(step.path, step.data);
      else writeFileAtomic(step.path, step.data, step.mode);
    } catch (error) {
      left.push(`${step.path} (${describeError(error)})`);
    }
  }
  return left;
}

function readBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function modeOf(path: string): number | null {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat ? stat.mode & 0o777 : null;
}

/** The nearest existing dir at or above `dir` must be writable: a permission problem stops the run before any write. */
function assertWritableDir(dir: string): void {
  let existing = dir;
  while (!statSync(existing, { throwIfNoEntry: false })) {
    if (dirname(existing) === existing) return;
    existing = dirname(existing);
  }
  accessSync(existing, constants.W_OK);
}

/**
 * Makes the parent dirs of `path`, returning those it made, outermost first; carryover's own are private (0700),
 * through a stowed root's link as the hooks go through it.
 */
function makeParent(path: string, env: Env): string[] {
  const root = carryoverRoot(env);
  const parent = dirname(path);
  const missing: string[] = [];
  for (let dir = parent; !statSync(dir, { throwIfNoEntry: false }) && dirname(dir) !== dir; dir = dirname(dir))
    missing.unshift(dir);
  if (parent === root || isInside(parent, root))
    ensureCarryoverDir(env, ...relative(root, parent).split(sep).filter(Boolean));
  else if (missing.length > 0) mkdirSync(parent, { recursive: true });
  return missing;
}

function isInside(path: string, dir: string): boolean {
  return path.startsWith(dir + sep);
}

/** Removes a dir carryover made once nothing is left in it; true when it did. */
function removeEmptyDir(path: string): boolean {
  try {
    if (readdirSync(path).length > 0) return false;
    rmdirSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

const ATTEMPTS = 5;

/** Runs `planAndApply` again, from fresh reads, while a file it changes is being written by someone else. */
export function retryOnConcurrentEdit<T>(planAndApply: () => T): T {
  for (let attempt = 1; ; attempt++) {
    try {
      return planAndApply();
    } catch (error) {
      if (!(error instanceof ConcurrentEditError) || attempt === ATTEMPTS) throw error;
    }
  }
}
