import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Usage } from "./types.ts";

/** Files in the log dir that override reported usage, re-read per request: a TUI test changes them between prompts. */
const USAGE_FILES = ["input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"] as const;

export function readUsageFiles(logDir: string | undefined): Partial<Usage> {
  const usage: Partial<Usage> = {};
  if (logDir === undefined) return usage;
  for (const name of USAGE_FILES) {
    let text: string;
    try {
      text = readFileSync(join(logDir, name), "utf8").trim();
    } catch {
      continue;
    }
    const value = Number(text);
    if (text !== "" && Number.isFinite(value)) usage[name] = value;
  }
  return usage;
}
