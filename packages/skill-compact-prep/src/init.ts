import { linkSync, renameSync } from "node:fs";
import {
  CarryoverError,
  compactStateCompanions,
  isUnfilledState,
  readFileNoFollow,
  stateTemplate,
  writeFileAtomic,
} from "@carryover/core";
import type { StateLocation } from "./location.ts";

export interface InitResult {
  /** Where the state that was there before now is; absent when there was none, or only an unfilled template. */
  backupPath?: string | undefined;
}

/**
 * Writes the template with every header. An existing state is replaced only with `force`, and then
 * kept as `<path>.bak` (with its time); an unfilled template is simply replaced, so
 * two runs in a row never swap a real backup for an empty one.
 */
export function initState(location: StateLocation, sessionId: string, nowMs: number, force: boolean): InitResult {
  const statePath = location.path;
  const { backup } = compactStateCompanions(statePath);
  location.ensureDir();
  const existing = readFileNoFollow(statePath);
  let backupPath: string | undefined;
  if (existing !== null) {
    if (!force) {
      throw new CarryoverError(
        "EXISTS",
        `${statePath} already exists; pass --force to start from a fresh template ` +
          `(the current file is then kept as ${backup})`,
      );
    }
    if (!isUnfilledState(existing)) {
      backupPath = backup;
      keepAsBackup(statePath, backupPath);
    }
  }
  writeFileAtomic(statePath, stateTemplate(sessionId, nowMs));
  // After the template: a stamp left from an earlier init only makes the state look older, never fresher.
  location.stamp();
  return { backupPath };
}

/**
 * The state becomes the backup as well (a second link to the same file: its time is kept) and stays where
 * it is until the template replaces it, so a kill at any instant leaves the old state or the new template.
 */
function keepAsBackup(statePath: string, backupPath: string): void {
  const link = `${backupPath}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  linkSync(statePath, link);
  renameSync(link, backupPath);
}
