import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  array,
  carryoverRoot,
  type Env,
  type Infer,
  literal,
  looseObject,
  nullable,
  optional,
  record,
  string,
  unknown,
} from "@carryover/core";
import { CliError } from "../errors.ts";
import { parseObject, readText } from "../json/doc.ts";
import type { Change, TextChange } from "./changes.ts";

const fileRecord = looseObject({
  /** The file's bytes before carryover first wrote to it; null when it did not exist. */
  original: nullable(string()),
  /** Hooks whose entries carryover put in this file. */
  hooks: array(string()),
  /** The statusLine object carryover's statusline displaced from this file, restored on uninstall. */
  statusLine: optional(record(unknown())),
});

const installRecord = looseObject({
  version: literal(1),
  /** What carryover did to each settings or config file (by absolute path), so uninstall can undo exactly that. */
  files: record(fileRecord),
  /** By executable name in the bin dir. */
  executables: record(looseObject({ hook: string(), version: string(), sha256: string() })),
  /** By the installed skill dir's absolute path; a file whose hash still matches is ours to replace or remove. */
  skills: record(
    looseObject({
      hook: string(),
      version: optional(string()),
      files: array(looseObject({ path: string(), sha256: string() })),
    }),
  ),
  /** Dirs outside carryover's own that an install made (a project's .claude/): uninstall removes them once empty. */
  madeDirs: optional(array(string())),
});

export type FileRecord = Infer<typeof fileRecord>;
export type InstallRecord = Infer<typeof installRecord>;

/**
 * Records the dirs outside carryover's own that applying `changes` will make (those missing now), so that
 * uninstall can take them away again once they are empty.
 */
export function recordMadeDirs(
  record: InstallRecord,
  changes: readonly Change[],
  env: Env,
  alreadyMade: readonly string[] = [],
): void {
  const root = carryoverRoot(env);
  const made = new Set([...(record.madeDirs ?? []), ...alreadyMade]);
  for (const change of changes) {
    if (change.kind === "rmdir" || change.kind === "remove") continue;
    for (let dir = dirname(change.path); !existsSync(dir) && dirname(dir) !== dir; dir = dirname(dir)) {
      if (dir !== root && !dir.startsWith(`${root}/`)) made.add(dir);
    }
  }
  if (made.size > 0) record.madeDirs = [...made].sort();
}

/**
 * Removes the recorded dirs inside `under` once nothing of carryover's is left there (an rmdir leaves a dir that
 * still holds the user's files), deepest first, and forgets them.
 */
export function planMadeDirsRemoval(record: InstallRecord, under: string): Change[] {
  const within = (path: string) => path === under || path.startsWith(`${under}/`);
  if (Object.keys(record.files).some(within) || Object.keys(record.skills).some(within)) return [];
  const inside = (record.madeDirs ?? []).filter(within);
  if (inside.length === 0) return [];
  const rest = (record.madeDirs ?? []).filter((dir) => !inside.includes(dir));
  if (rest.length > 0) record.madeDirs = rest;
  else delete record.madeDirs;
  return inside.sort((a, b) => b.length - a.length).map((path): Change => ({ kind: "rmdir", path }));
}

export function installRecordPath(env: Env): string {
  return join(carryoverRoot(env), "installs.json");
}

export interface LoadedRecord {
  record: InstallRecord;
  text: string | null;
}

export function loadInstallRecord(env: Env): LoadedRecord {
  const path = installRecordPath(env);
  const text = readText(path);
  if (text === null) return { text, record: { version: 1, files: {}, executables: {}, skills: {} } };
  const value = parseObject(text, path);
  const refused: string[][] = [];
  if (!installRecord(value, [], refused)) {
    throw new CliError(
      `${path}: not what carryover writes (${refused[0]?.join(".") || "the top level"}); move it away and run ` +
        "`carryover uninstall --all`, which finds carryover's entries without it",
    );
  }
  return { text, record: value };
}

function isEmptyRecord(record: InstallRecord): boolean {
  return (
    Object.keys(record.files).length === 0 &&
    Object.keys(record.executables).length === 0 &&
    Object.keys(record.skills).length === 0 &&
    (record.madeDirs ?? []).length === 0
  );
}

/** The record's write (or removal, once nothing is installed), as a change applied after everything else. */
export function recordChange(env: Env, loaded: LoadedRecord): TextChange {
  const after = isEmptyRecord(loaded.record) ? null : `${JSON.stringify(loaded.record, null, 2)}\n`;
  return { kind: "text", path: installRecordPath(env), before: loaded.text, after, internal: true };
}
