import { readFileSync, statSync } from "node:fs";
import { CarryoverError, parseJsonText } from "@carryover/core";
import { CliError } from "../errors.ts";
import { detectFormat, formatJson, type JsonFormat } from "./_format.ts";
import { reprintJson } from "./_reprint.ts";
import { deepEqual } from "./equal.ts";

export interface JsonDoc {
  path: string;
  /** The bytes as read; null when the file does not exist. */
  text: string | null;
  value: Record<string, unknown>;
  format: JsonFormat;
}

export function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const errno = error as NodeJS.ErrnoException;
    if (errno.code === "ENOENT") return null;
    // Node names no path for some (EISDIR); the one message at the CLI's top should.
    errno.path ??= path;
    throw error;
  }
}

// An editor saving in place truncates the file, then writes it, and may stall between the two. Text that is blank
// or cut short is read again while the file keeps changing, until it parses or has been still for QUIET_MS; a file
// left blank or broken long ago is taken as it is, at once.
const QUIET_MS = 1_500;
const POLL_MS = 20;
const MAX_WAIT_MS = 10_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Written in the last QUIET_MS (a time ahead of the clock is not counted: it would hold the read for good). */
function isChanging(path: string): boolean {
  const mtimeMs = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
  if (mtimeMs === undefined) return false;
  const age = Date.now() - mtimeMs;
  return age >= 0 && age < QUIET_MS;
}

function isWholeJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\ufeff/, ""));
    return true;
  } catch {
    return false;
  }
}

/** Reads a JSON object file; malformed JSON is one line naming file, line and column. Absent or blank reads as {}. */
export function readJsonDoc(path: string): JsonDoc {
  let text = readText(path);
  const startMs = Date.now();
  while (text !== null && !isWholeJson(text) && isChanging(path) && Date.now() - startMs < MAX_WAIT_MS) {
    Atomics.wait(sleeper, 0, 0, POLL_MS);
    text = readText(path);
  }
  return { path, text, value: parseObject(text, path), format: detectFormat(text) };
}

export function parseObject(text: string | null, path: string): Record<string, unknown> {
  if (text === null || text.trim() === "") return {};
  let value: unknown;
  try {
    value = parseJsonText(text, path);
  } catch (error) {
    throw error instanceof CarryoverError ? new CliError(`${error.message}; fix the JSON there`) : error;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CliError(`${path}: the top level is not a JSON object ({…}); fix the file there`);
  }
  return value as Record<string, unknown>;
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}

/**
 * `value` as the new text of `doc`: in the file's own layout when there is one (only what changed is
 * rewritten), checked to parse back to `value`; a file carryover starts gets the detected defaults.
 */
export function serializeJson(doc: JsonDoc, value: unknown): string {
  if (doc.text === null || doc.text.trim() === "") return formatJson(value, doc.format);
  const text = reprintJson(doc.text, value, doc.format);
  return parsesTo(text, value) ? text : formatJson(value, doc.format);
}

function parsesTo(text: string, value: unknown): boolean {
  try {
    return deepEqual(JSON.parse(text.replace(/^\ufeff/, "")), value);
  } catch {
    return false;
  }
}
