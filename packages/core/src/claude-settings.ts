import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AutoCompactSettings } from "./auto-compact.ts";
import type { Env } from "./env.ts";
import { claudeDir } from "./paths.ts";

/** Claude Code's settings files in the order it layers them (later wins). */
export function claudeSettingsPaths(env: Env, projectDir: string | undefined): string[] {
  const paths = [join(claudeDir(env), "settings.json")];
  if (projectDir) paths.push(join(projectDir, ".claude", "settings.json"), join(projectDir, ".claude", "settings.local.json"));
  return paths;
}

/** The settings that move the auto-compact point; unreadable files count as absent. */
export function readAutoCompactSettings(env: Env, projectDir: string | undefined): AutoCompactSettings {
  let autoCompactWindow: number | undefined;
  for (const path of claudeSettingsPaths(env, projectDir)) {
    let settings: unknown;
    try {
      settings = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      continue;
    }
    const value = (settings as { autoCompactWindow?: unknown } | null)?.autoCompactWindow;
    if (typeof value === "number" && value > 0) autoCompactWindow = value;
  }
  return { autoCompactWindow };
}
