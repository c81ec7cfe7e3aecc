import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { array, claudeDir, type Env, looseObject, optional, record, string } from "@carryover/core";
import type { Layer } from "./layers.ts";
import type { Scope } from "./scope.ts";

/** One of carryover's hooks or skills installed as a Claude Code plugin, enabled where this project sees it. */
export interface PluginInstall {
  /** `post-compact@carryover`: the plugin's name and its marketplace's. */
  key: string;
  /** The carryover hook or skill it carries. */
  name: string;
  scope: Scope;
}

// `~/.claude/plugins/installed_plugins.json` as `claude plugin install` writes it in 2.1.332 (version 2).
const installedPlugins = looseObject({
  plugins: record(array(looseObject({ scope: string(), installPath: string(), projectPath: optional(string()) }))),
});

/**
 * The plugin dir carries carryover's `name` in a form Claude Code runs: a `carryover marketplace` plugin (the
 * executable with its hooks.json, or the skill), or the hook's own npm package (the repo's marketplace.json
 * sources each plugin from it). A status line alone is never run: 2.1.332's plugins cannot set it, so a
 * statusline plugin only says how to install it, and installing it with carryover does not run it twice.
 */
function carriesCarryover(installPath: string, name: string): boolean {
  if (existsSync(join(installPath, "skills", name, "SKILL.md"))) return true;
  if (existsSync(join(installPath, "bin", `carryover-${name}`)))
    return existsSync(join(installPath, "hooks", "hooks.json"));
  const field = carryoverField(installPath);
  if (field?.skill === name) return true;
  return field?.hook === name && Array.isArray(field.registrations) && field.registrations.length > 0;
}

/** The `carryover` field of the package.json in `dir`, if it has one. */
function carryoverField(dir: string): { hook?: unknown; skill?: unknown; registrations?: unknown } | undefined {
  try {
    const field = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { carryover?: unknown }).carryover;
    return typeof field === "object" && field !== null ? field : undefined;
  } catch {
    return undefined;
  }
}

/**
 * carryover's hooks and skills that Claude Code runs as plugins in this project: installed (in
 * `installed_plugins.json`, for the user or for this project) and enabled by the settings layers, the last
 * layer that names the plugin deciding, as Claude Code merges `enabledPlugins`.
 */
export function carryoverPlugins(
  env: Env,
  layers: readonly Layer[],
  names: readonly string[],
  projectDir: string,
): PluginInstall[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(claudeDir(env), "plugins", "installed_plugins.json"), "utf8"));
  } catch {
    return [];
  }
  if (!installedPlugins(value, [], [])) return [];
  const enabled = (key: string): boolean => {
    let on = false;
    for (const layer of layers) {
      const plugins = layer.doc?.value.enabledPlugins;
      if (plugins && typeof plugins === "object" && key in plugins)
        on = (plugins as Record<string, unknown>)[key] === true;
    }
    return on;
  };
  const found: PluginInstall[] = [];
  for (const [key, installs] of Object.entries(value.plugins)) {
    const name = key.split("@")[0]!;
    if (!names.includes(name) || !enabled(key)) continue;
    for (const install of installs) {
      const scope = install.scope === "project" || install.scope === "local" ? install.scope : "user";
      if (scope !== "user" && install.projectPath !== projectDir) continue;
      if (carriesCarryover(install.installPath, name)) found.push({ key, name, scope });
    }
  }
  return found;
}
