import { layeredSetting } from "./settings.ts";
import { type Env, isTruthy } from "../env.ts";

const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";

/**
 * Whether Claude Code keeps auto-memory for this project: off with `CLAUDE_CODE_DISABLE_AUTO_MEMORY`,
 * or `"autoMemoryEnabled": false` in its settings (the last settings file that says so wins).
 */
export function isAutoMemoryEnabled(env: Env, projectDir: string | undefined): boolean {
  if (isTruthy(env.CLAUDE_CODE_DISABLE_AUTO_MEMORY)) return false;
  return layeredSetting(env, projectDir, "autoMemoryEnabled", isBoolean) ?? true;
}
