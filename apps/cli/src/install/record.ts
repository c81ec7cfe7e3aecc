import { join } from "node:path";
import { carryoverRoot, type Env } from "@carryover/core";
import type { TextChange } from "./changes.ts";
import { parseObject, readText } from "../json/doc.ts";

type Json = Record<string, unknown>;

/** What carryover did to one settings or config file, so uninstall can undo exactly that. */
export interface FileRecord {
  /** The file's bytes before carryover first wrote to it; null when it did not exist. */
  original: string | null;
  /** Hooks whose entries carryover put in this file. */
  hooks: string[];
  /** The statusLine object carryover's statusline displaced from this file, restored on uninstall. */
  statusLine?: Json | undefined;
}

interface ExecutableRecord {
  hook: string;
  version: string;
  sha256: string;
}

interface SkillRecord {
  hook: string;
  /** As installed; a file whose hash still matches is carryover's to replace or remove. */
  files: Array<{ path: string; sha256: string }>;
}

export interface InstallRecord {
  version: 1;
  /** By absolute path of the settings or config file. */
  files: Record<string, FileRecord>;
  /** By executable name in the bin dir. */
  executables: Record<string, ExecutableRecord>;
  /** By absolute path of the installed skill dir. */
  skills: Record<string, SkillRecord>;
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
  const value = parseObject(text, path) as Partial<InstallRecord>;
  return { text, record: { version: 1, files: value.files ?? {}, executables: value.executables ?? {}, skills: value.skills ?? {} } };
}

function isEmptyRecord(record: InstallRecord): boolean {
  return Object.keys(record.files).length === 0 && Object.keys(record.executables).length === 0 && Object.keys(record.skills).length === 0;
}

/** The record's write (or removal, once nothing is installed), as a change applied after everything else. */
export function recordChange(env: Env, loaded: LoadedRecord): TextChange {
  const after = isEmptyRecord(loaded.record) ? null : `${JSON.stringify(loaded.record, null, 2)}\n`;
  return { kind: "text", path: installRecordPath(env), before: loaded.text, after, internal: true };
}
