import { join } from "node:path";
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
import type { TextChange } from "./changes.ts";
import { parseObject, readText } from "../json/doc.ts";

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
  /** By absolute path of the installed skill dir; a file whose hash still matches is carryover's to replace or remove. */
  skills: record(looseObject({ hook: string(), files: array(looseObject({ path: string(), sha256: string() })) })),
});

export type FileRecord = Infer<typeof fileRecord>;
export type InstallRecord = Infer<typeof installRecord>;

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
    Object.keys(record.skills).length === 0
  );
}

/** The record's write (or removal, once nothing is installed), as a change applied after everything else. */
export function recordChange(env: Env, loaded: LoadedRecord): TextChange {
  const after = isEmptyRecord(loaded.record) ? null : `${JSON.stringify(loaded.record, null, 2)}\n`;
  return { kind: "text", path: installRecordPath(env), before: loaded.text, after, internal: true };
}
