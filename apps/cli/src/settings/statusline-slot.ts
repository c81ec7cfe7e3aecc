import { LAUNCHER, NODE, type OwnedRun, type Owner, ownedRun, STATUS_LINE_FILE_VARIABLE } from "./handlers.ts";

type Json = Record<string, unknown>;

export const STATUS_LINE_MODES = ["chain", "replace", "skip"] as const;
export type StatusLineMode = (typeof STATUS_LINE_MODES)[number];

function shellWord(word: string): string {
  return /^[A-Za-z0-9_/.+=:@%-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `statusLine.command` is run by `/bin/sh -c` and has no exec form in 2.1.332. That shell sources the executable,
 * named in `$carryover_statusline`: its sh prelude (packages/build) then finds Node and execs it from that one
 * process, where running the file would fork and start a second sh on every render. On Windows `node <path>`.
 */
export function shellCommandFor(executablePath: string): string {
  if (LAUNCHER === NODE) return `${NODE} ${shellWord(executablePath)}`;
  return `${STATUS_LINE_FILE_VARIABLE}=${shellWord(executablePath)}; . "$${STATUS_LINE_FILE_VARIABLE}"`;
}

export function isStatusLineObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The carryover executable a `statusLine` runs (its `command` is always a shell command), else null. */
export function ownedStatusLineRun(value: unknown, owner: Owner): OwnedRun | null {
  return isStatusLineObject(value) ? ownedRun({ command: value.command }, owner) : null;
}

/** The executable name when `statusLine` runs one of carryover's executables, else null. */
export function ownedStatusLine(value: unknown, owner: Owner): string | null {
  return ownedStatusLineRun(value, owner)?.executable ?? null;
}

/** A statusLine someone else set: the slot carryover's statusline would take. */
export function foreignStatusLine(value: unknown, owner: Owner): Json | null {
  return isStatusLineObject(value) &&
    typeof value.command === "string" &&
    value.command.trim() !== "" &&
    ownedStatusLine(value, owner) === null
    ? value
    : null;
}

/** Ours, keeping the user's other statusLine keys (padding, refreshInterval…) when there was one. */
export function ourStatusLine(previous: Json | null, command: string): Json {
  return previous ? { ...previous, type: "command", command } : { type: "command", command };
}
