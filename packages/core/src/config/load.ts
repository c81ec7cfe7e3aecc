import { projectConfigPath, userConfigPath } from "../claude/paths.ts";
import { type Env, homeDir } from "../env.ts";
import { errorMessage } from "../errors.ts";
import { readTextIfExists } from "../fs/_text-if-exists.ts";
import { parseJsonText } from "../fs/json-text.ts";
import { SHARED_KEYS } from "./shared.ts";
import {
  accepts,
  type ConfigTable,
  type ConfigValues,
  defaultsOf,
  expandPath,
  expects,
  fromText,
  type KeySpec,
} from "./table.ts";

// biome-ignore lint/complexity/noBannedTypes: a hook without keys of its own.
export interface Config<T extends ConfigTable = {}> {
  shared: ConfigValues<typeof SHARED_KEYS>;
  hook: ConfigValues<T>;
  /** One line per ignored value (file or env var, key, what was expected); defaults stand in. */
  problems: string[];
}

type RawLayer = { source: string; values: Record<string, unknown> };

/** `CARRYOVER_LEVELS`, `CARRYOVER_PREP_REMINDER_MESSAGE`, `CARRYOVER_STATUSLINE_CHAIN_TIMEOUT_MS`… */
export function configEnvName(section: string, key: string): string {
  const snake = (text: string) =>
    text
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/-/g, "_")
      .toUpperCase();
  return section === "" ? `CARRYOVER_${snake(key)}` : `CARRYOVER_${snake(section)}_${snake(key)}`;
}

export function configKeyLabel(section: string, key: string): string {
  return section === "" ? key : `${section}.${key}`;
}

/**
 * Checks one value of `section`'s `keys`; returns the problem as one line, or null when it is valid. `typed` is
 * the text it was read from, shown instead of the parsed value (an env var's "abc" parses to NaN, shown as null).
 */
export function checkConfigValue(keys: ConfigTable, section: string, key: string, value: unknown, typed?: string) {
  const spec = keys[key];
  const label = configKeyLabel(section, key);
  if (!spec) return `unknown key ${label}`;
  if (accepts(spec, value)) return null;
  return `${label}: expected ${expects(spec)}, got ${JSON.stringify(typed ?? value)?.slice(0, 60)}`;
}

/** A valid value as hooks use it: a path's `~` expanded, so `~/state` is one dir from every project. */
function ready(spec: KeySpec, value: unknown, home: string): unknown {
  return spec.kind === "path" ? expandPath(value as string, home) : value;
}

function readLayer(path: string): RawLayer | string | null {
  const text = readTextIfExists(path);
  if (text === null) return null;
  try {
    const values = parseJsonText(text, path);
    if (values === null || typeof values !== "object" || Array.isArray(values))
      return `${path}: expected a JSON object`;
    return { source: path, values: values as Record<string, unknown> };
  } catch (error) {
    return errorMessage(error);
  }
}

function sectionValues(layer: RawLayer, section: string): Record<string, unknown> {
  if (section === "") return layer.values;
  const values = layer.values[section];
  return values && typeof values === "object" && !Array.isArray(values) ? (values as Record<string, unknown>) : {};
}

/** `env` holds at least one `CARRYOVER_*` variable; without one, no key's env name needs working out. */
function resolveSection<T extends ConfigTable>(
  section: string,
  keys: T,
  layers: RawLayer[],
  env: Env | null,
  problems: string[],
  home: string,
): ConfigValues<T> {
  const resolved = defaultsOf(keys) as Record<string, unknown>;
  if (layers.length === 0 && !env) return resolved as ConfigValues<T>;
  for (const [key, spec] of Object.entries(keys)) {
    for (const layer of layers) {
      const values = sectionValues(layer, section);
      if (!(key in values)) continue;
      const problem = checkConfigValue(keys, section, key, values[key]);
      if (problem) problems.push(`${layer.source}: ${problem}`);
      else resolved[key] = ready(spec, values[key], home);
    }
    const envName = env && configEnvName(section, key);
    const text = envName ? env[envName] : undefined;
    if (envName && text !== undefined) {
      const value = fromText(spec, text);
      const problem = checkConfigValue(keys, section, key, value, text);
      if (problem) problems.push(`${envName}: ${problem}`);
      else resolved[key] = ready(spec, value, home);
    }
  }
  return resolved as ConfigValues<T>;
}

interface ProbedConfig {
  name: string;
  env: Env;
  projectDir: string;
  loadedConfig?: Config<ConfigTable> | undefined;
}

/**
 * The config a hook's probe decides with, from the hook's `keys`, loaded once: the runtime hands the same config
 * to run and logs its problems, since a probe logs nothing.
 */
export function probeConfig<T extends ConfigTable>(context: ProbedConfig, keys: T): Config<T> {
  context.loadedConfig ??= loadConfig(context.name, keys, context.env, context.projectDir);
  return context.loadedConfig as Config<T>;
}

/**
 * The configuration one hook runs with, its `section` read with its `keys` and the shared keys at the top level
 * (section "" reads the shared keys alone): defaults, then `~/.claude/carryover/config.json`, then the project's
 * `.claude/carryover/config.json`, then `CARRYOVER_*` env vars. A bad value never stops a hook: it is reported in
 * `problems` and the value below it stands.
 */
export function loadConfig<T extends ConfigTable>(section: string, keys: T, env: Env, projectDir?: string): Config<T> {
  const problems: string[] = [];
  const layers: RawLayer[] = [];
  for (const path of [userConfigPath(env), ...(projectDir ? [projectConfigPath(projectDir)] : [])]) {
    const layer = readLayer(path);
    if (typeof layer === "string") problems.push(layer);
    else if (layer) layers.push(layer);
  }
  const configEnv = Object.keys(env).some((name) => name.startsWith("CARRYOVER_")) ? env : null;
  const home = homeDir(env);
  const shared = resolveSection("", SHARED_KEYS, layers, configEnv, problems, home);
  const hook = section === "" ? shared : resolveSection(section, keys, layers, configEnv, problems, home);
  return { shared, hook: hook as ConfigValues<T>, problems };
}
