import { readdirSync } from "node:fs";
import { join } from "node:path";
import { errorMessage } from "@carryover/core";
import { parseObject, readText } from "../json/doc.ts";

/** Claude Code 2.1.332's managed settings dir per platform (binary strings). */
export function managedSettingsDir(platform: NodeJS.Platform): string {
  if (platform === "darwin") return "/Library/Application Support/ClaudeCode";
  if (platform === "win32") return "C:\\Program Files\\ClaudeCode";
  return "/etc/claude-code";
}

interface ManagedFile {
  path: string;
  value: Record<string, unknown> | null;
  error: string | null;
}

/** `managed-settings.json` and the drop-ins in `managed-settings.d/`, those that exist. */
export function readManagedSettings(dir: string): ManagedFile[] {
  let dropIns: string[] = [];
  try {
    dropIns = readdirSync(join(dir, "managed-settings.d"))
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => join(dir, "managed-settings.d", name));
  } catch {
    // no drop-in dir
  }
  return [join(dir, "managed-settings.json"), ...dropIns].flatMap((path): ManagedFile[] => {
    try {
      const text = readText(path);
      return text === null ? [] : [{ path, value: parseObject(text, path), error: null }];
    } catch (error) {
      return [{ path, value: null, error: errorMessage(error) }];
    }
  });
}
