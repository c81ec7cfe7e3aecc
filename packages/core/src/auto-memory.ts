import { readFileSync } from "node:fs";
import { claudeSettingsPaths } from "./claude-settings.ts";
import { type Env, isTruthy } from "./env.ts";

/**
 * Whether Claude Code keeps auto-memory for this project: off with `CLAUDE_CODE_DISABLE_AUTO_MEMORY`,
 * or `"autoMemoryEnabled": false` in its settings (the last settings file that says so wins).
 */
export function isAutoMemoryEnabled(env: Env, projectDir: string | undefined): boolean {
  if (isTruthy(env.CLAUDE_CODE_DISABLE_AUTO_MEMORY)) return false;
  let enabled = true;
  for (const path of claudeSettingsPaths(env, projectDir)) {
    let settings: unknown;
    try {
      settings = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      continue;
    }
    const value = (settings as { autoMemoryEnabled?: unknown } | null)?.autoMemoryEnabled;
    if (typeof value === "boolean") enabled = value;
  }
  return enabled;
}
