import { type JsonDoc, parseObject, serializeJson } from "../json/doc.ts";
import { deepEqual } from "../json/equal.ts";
import type { TextChange } from "./changes.ts";
import type { FileRecord, InstallRecord } from "./record.ts";

type Json = Record<string, unknown>;

/**
 * The record of a file carryover is about to edit. Its pre-carryover bytes are taken now unless a record
 * exists and the file still holds carryover's entries (then the record's older bytes are the original).
 */
export function trackFile(record: InstallRecord, doc: JsonDoc, holdsOurs: boolean): FileRecord {
  const existing = record.files[doc.path];
  if (existing && holdsOurs) return existing;
  const fresh: FileRecord = { original: doc.text, hooks: [] };
  record.files[doc.path] = fresh;
  return fresh;
}

/** Empty objects and lists dropped, recursively: what removing carryover's entries may leave or take away. */
function pruned(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruned);
  if (value === null || typeof value !== "object") return value;
  const result: Json = {};
  for (const [key, item] of Object.entries(value)) {
    const kept = pruned(item);
    const empty = kept !== null && typeof kept === "object" && Object.keys(kept).length === 0;
    if (!empty) result[key] = kept;
  }
  return result;
}

/**
 * The text a file gets once carryover's entries are out of `value`: when nothing else changed since
 * carryover first wrote to it, its original bytes (null: it did not exist), byte for byte; otherwise
 * `value` in the file's own layout.
 */
export function changeAfterRemoval(
  doc: JsonDoc,
  value: Json,
  file: FileRecord | undefined,
  holdsOurs: boolean,
): TextChange | null {
  if (file && !holdsOurs && deepEqual(pruned(value), pruned(parseObject(file.original, doc.path)))) {
    const change = textChange(doc, file.original);
    return change && { ...change, restored: true };
  }
  return textChange(doc, serializeJson(doc, value));
}

export function textChange(doc: JsonDoc, after: string | null): TextChange | null {
  return after === doc.text ? null : { kind: "text", path: doc.path, before: doc.text, after };
}
