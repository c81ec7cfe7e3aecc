import { type ConfigKey, type ConfigSection, type SectionConfig, sectionDefaults, sectionKeys } from "./keys.ts";
import type { Env } from "../env.ts";
import { errorMessage } from "../errors.ts";
import { parseJsonText } from "../fs/json-text.ts";
import { projectConfigPath, userConfigPath } from "../claude/paths.ts";
import { readTextIfExists } from "../fs/_text-if-exists.ts";

export interface Config<S extends ConfigSection> {
  shared: SectionConfig<"">;
  hook: SectionConfig<S>;
  /** One line per ignored value (file or env var, key, what was expected); defaults stand in. */
  problems: string[];
}

type RawLayer = { source: string; values: Record<string, unknown> };

function keysOf(section: ConfigSection): Record<string, ConfigKey> {
  return sectionKeys(section) as Record<string, ConfigKey>;
}

/** `CARRYOVER_LEVELS`, `CARRYOVER_PREP_REMINDER_MESSAGE`, `CARRYOVER_STATUSLINE_CHAIN_TIMEOUT_MS`… */
export function configEnvName(section: ConfigSection, key: string): string {
  const snake = (text: string) => text.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/-/g, "_").toUpperCase();
  return section === "" ? `CARRYOVER_${snake(key)}` : `CARRYOVER_${snake(section)}_${snake(key)}`;
}

export function configKeyLabel(section: ConfigSection, key: string): string {
  return section === "" ? key : `${section}.${key}`;
}

/**
 * Checks one value; returns the problem as one line, or null when it is valid. `typed` is the text it
 * was read from, shown instead of the parsed value (an env var's "abc" parses to NaN, shown as null).
 */
export function checkConfigValue(section: ConfigSection, key: string, value: unknown, typed?: string): string | null {
  const spec = keysOf(section)[key];
  if (!spec) return `unknown key ${configKeyLabel(section, key)}`;
  if (spec.check(value)) return null;
  return `${configKeyLabel(section, key)}: expected ${spec.expects}, got ${JSON.stringify(typed ?? value)?.slice(0, 60)}`;
}

function readLayer(path: string): RawLayer | string | null {
  const text = readTextIfExists(path);
  if (text === null) return null;
  try {
    const values = parseJsonText(text, path);
    if (values === null || typeof values !== "object" || Array.isArray(values)) return `${path}: expected a JSON object`;
    return { source: path, values: values as Record<string, unknown> };
  } catch (error) {
    return errorMessage(error);
  }
}

function sectionValues(layer: RawLayer, section: ConfigSection): Record<string, unknown> {
  if (section === "") return layer.values;
  const values = layer.values[section];
  return values && typeof values === "object" && !Array.isArray(values) ? (values as Record<string, unknown>) : {};
}

/** `env` holds at least one `CARRYOVER_*` variable; without one, no key's env name needs working out. */
function resolveSection(section: ConfigSection, layers: RawLayer[], env: Env | null, problems: string[]): Record<string, unknown> {
  if (layers.length === 0 && !env) return sectionDefaults(section);
  const resolved: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(keysOf(section))) {
    resolved[key] = spec.default;
    for (const layer of layers) {
      const values = sectionValues(layer, section);
      if (!(key in values)) continue;
      const problem = checkConfigValue(section, key, values[key]);
      if (problem) problems.push(`${layer.source}: ${problem}`);
      else resolved[key] = values[key];
    }
    if (!env) continue;
    const envName = configEnvName(section, key);
    const text = env[envName];
    if (text !== undefined) {
      const value = spec.fromText(text);
      const problem = checkConfigValue(section, key, value, text);
      if (problem) problems.push(`${envName}: ${problem}`);
      else resolved[key] = value;
    }
  }
  return resolved;
}

interface ProbedConfig<S extends ConfigSection> {
  name: S;
  env: Env;
  projectDir: string;
  loadedConfig?: Config<S> | undefined;
}

/**
 * The config a hook's probe decides with, loaded once: the runtime hands the same config to run and logs its
 * problems, since a probe logs nothing.
 */
export function probeConfig<S extends ConfigSection>(context: ProbedConfig<S>): Config<S> {
  context.loadedConfig ??= loadConfig(context.name, context.env, context.projectDir);
  return context.loadedConfig;
}

/**
 * The configuration one hook runs with: defaults, then `~/.claude/carryover/config.json`, then the
 * project's `.claude/carryover/config.json`, then `CARRYOVER_*` env vars. A bad value never stops a
 * hook: it is reported in `problems` and the value below it stands.
 */
export function loadConfig<S extends ConfigSection>(section: S, env: Env, projectDir?: string): Config<S> {
  const problems: string[] = [];
  const layers: RawLayer[] = [];
  for (const path of [userConfigPath(env), ...(projectDir ? [projectConfigPath(projectDir)] : [])]) {
    const layer = readLayer(path);
    if (typeof layer === "string") problems.push(layer);
    else if (layer) layers.push(layer);
  }
  const configEnv = Object.keys(env).some((name) => name.startsWith("CARRYOVER_")) ? env : null;
  const shared = resolveSection("", layers, configEnv, problems) as SectionConfig<"">;
  const hook = (section === "" ? shared : resolveSection(section, layers, configEnv, problems)) as SectionConfig<S>;
  return { shared, hook, problems };
}
