import type { Context } from "../context.ts";
import { clone, readJsonDoc, serializeJson } from "../json/doc.ts";
import { changeAfterRemoval, textChange, trackFile } from "./_file-tracking.ts";
import type { Change } from "./changes.ts";

type Json = Record<string, unknown>;

const STATUSLINE_HOOK = "statusline";
const SECTION = "statusline";
const KEY = "chainCommand";

/**
 * Sets (a string) or clears (null) `statusline.chainCommand` in a carryover config file: the statusline
 * hook runs that command with the same stdin and shows its output with its own.
 */
export function planChainCommand(context: Context, configPath: string, command: string | null): Change[] {
  const doc = readJsonDoc(configPath);
  const value = clone(doc.value);
  const section = value[SECTION];
  const current =
    section !== null && typeof section === "object" && !Array.isArray(section) ? (section as Json) : undefined;
  if (command === null) {
    const file = context.installed.record.files[configPath];
    delete context.installed.record.files[configPath];
    if (!current || !(KEY in current)) return [];
    delete current[KEY];
    if (Object.keys(current).length === 0) delete value[SECTION];
    const change = changeAfterRemoval(doc, value, file, false);
    return change ? [change] : [];
  }
  if (current?.[KEY] === command) return [];
  const file = trackFile(context.installed.record, doc, current !== undefined && KEY in current);
  if (!file.hooks.includes(STATUSLINE_HOOK)) file.hooks.push(STATUSLINE_HOOK);
  value[SECTION] = { ...(current ?? {}), [KEY]: command };
  const change = textChange(doc, serializeJson(doc, value));
  return change ? [change] : [];
}
