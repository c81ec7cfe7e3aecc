import type { Env } from "@carryover/core";
import { type Layer, readLayers } from "./layers.ts";
import { readManagedSettings } from "./managed.ts";

/** The environment hooks start with, and which settings file set each variable that one set. */
export interface HookEnv {
  env: Env;
  /** Variable name → the last settings file whose `env` sets it (absent: from this shell). */
  setIn: Record<string, string>;
}

/**
 * What Claude Code 2.1.332 hands its hooks: its own environment with each settings file's `env` over it, in the
 * order it layers them (user, project, local, then managed), a later file winning; checked on the real CLI. A
 * `CARRYOVER_*` variable set there reaches the hooks as if exported in the shell, so doctor and config read it.
 */
export function hookEnv(
  env: Env,
  projectDir: string,
  managedDir: string,
  layers: readonly Layer[] = readLayers({ env, projectDir }),
): HookEnv {
  const merged: Record<string, string | undefined> = { ...env };
  const setIn: Record<string, string> = {};
  const files = [
    ...layers.map((layer) => ({ path: layer.paths.settingsPath, value: layer.doc?.value })),
    ...readManagedSettings(managedDir).map((file) => ({ path: file.path, value: file.value ?? undefined })),
  ];
  for (const { path, value } of files) {
    const vars = value?.env;
    if (vars === null || typeof vars !== "object" || Array.isArray(vars)) continue;
    for (const [name, text] of Object.entries(vars)) {
      // It passes numbers and booleans on as their text ("env": {"CARRYOVER_PIN_MAX_BYTES": 500} gives "500").
      if (typeof text !== "string" && typeof text !== "number" && typeof text !== "boolean") continue;
      merged[name] = String(text);
      setIn[name] = path;
    }
  }
  return { env: merged, setIn };
}
