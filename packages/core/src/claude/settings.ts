import type { Env } from "../env.ts";
import { readTextIfExists } from "../fs/_text-if-exists.ts";
import { joinPath } from "../fs/join-path.ts";
import type { AutoCompactSettings } from "./auto-compact.ts";
import { claudeDir } from "./paths.ts";

/** Claude Code's settings files in the order it layers them (later wins). */
export function claudeSettingsPaths(env: Env, projectDir: string | undefined): string[] {
  const paths = [joinPath(claudeDir(env), "settings.json")];
  if (projectDir)
    paths.push(
      joinPath(projectDir, ".claude", "settings.json"),
      joinPath(projectDir, ".claude", "settings.local.json"),
    );
  return paths;
}

// A hook asks for several keys (the memory dir, whether auto-memory is on, the auto-compact window): each file is
// read once per env object, which a hook process has one of.
const textsByEnv = new WeakMap<Env, Map<string, string | null>>();

function settingsText(env: Env, path: string): string | null {
  let texts = textsByEnv.get(env);
  if (!texts) {
    texts = new Map();
    textsByEnv.set(env, texts);
  }
  if (!texts.has(path)) texts.set(path, readTextIfExists(path));
  return texts.get(path) ?? null;
}

/**
 * The value Claude Code's layered settings give `key` when it passes `accept` (the last file that sets an
 * accepted value wins); unreadable files count as absent.
 */
export function layeredSetting<T>(
  env: Env,
  projectDir: string | undefined,
  key: string,
  accept: (value: unknown) => value is T,
): T | undefined {
  let found: T | undefined;
  for (const path of claudeSettingsPaths(env, projectDir)) {
    const text = settingsText(env, path);
    // A settings.json that never names the key is not parsed: the status line asks on every render, and
    // a user's settings run to kilobytes of permissions and hooks. (A key spelt with \u escapes is missed.)
    if (text === null || !text.includes(`"${key}"`)) continue;
    let settings: unknown;
    try {
      // Claude Code 2.1.332 honours a settings.json that starts with a UTF-8 BOM (Windows editors save one).
      settings = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      continue;
    }
    const value = (settings as Record<string, unknown> | null)?.[key];
    if (accept(value)) found = value;
  }
  return found;
}

const isPositiveNumber = (value: unknown): value is number => typeof value === "number" && value > 0;

/** The settings that move the auto-compact point. */
export function readAutoCompactSettings(env: Env, projectDir: string | undefined): AutoCompactSettings {
  return { autoCompactWindow: layeredSetting(env, projectDir, "autoCompactWindow", isPositiveNumber) };
}
