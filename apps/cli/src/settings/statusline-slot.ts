import { LAUNCHER, NODE, type OwnedRun, type Owner, ownedRun } from "./handlers.ts";

type Json = Record<string, unknown>;

export const STATUS_LINE_MODES = ["chain", "replace", "skip"] as const;
export type StatusLineMode = (typeof STATUS_LINE_MODES)[number];

function shellWord(word: string): string {
  return /^[A-Za-z0-9_/.+=:@%-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `statusLine.command` is run by `/bin/sh -c` and has no exec form in 2.1.332: the executable's path, whose
 * `#!/bin/sh` prelude finds Node (packages/build), quoted when it needs it; on Windows `node <path>`.
 */
export function shellCommandFor(executablePath: string): string {
  return LAUNCHER === NODE ? `${NODE} ${shellWord(executablePath)}` : shellWord(executablePath);
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
