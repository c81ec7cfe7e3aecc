import { lstatSync } from "node:fs";
import type { FastPathContext } from "@carryover/core";
import { pinnedPaths } from "./pinned.ts";

/** Nothing to do: a SessionStart other than compact, or neither pinned file has any bytes. One lstat per file. */
export function nothingPinned({ payload, env, projectDir }: FastPathContext): boolean {
  if (payload.hook_event_name === "SessionStart" && payload.source !== "compact") return true;
  return !pinnedPaths(projectDir, env).some(hasBytes);
}

// lstat: a symlinked pin goes on to the full path, which refuses it with a warning; so does anything odd.
function hasBytes(path: string): boolean {
  try {
    return (lstatSync(path, { throwIfNoEntry: false })?.size ?? 0) > 0;
  } catch {
    return true;
  }
}
