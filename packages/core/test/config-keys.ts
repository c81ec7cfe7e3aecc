// For each hook's src/config.test.ts: its key table holds together, and its README's key table is true to it.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { configEnvName } from "../src/config/load.ts";
import { SHARED_KEYS } from "../src/config/shared.ts";
import { accepts, type ConfigTable, fromText, type KeySpec } from "../src/config/table.ts";

/**
 * What is wrong with `section`'s `keys` and with the key table of `readmePath` (rows `| \`key\` | \`default\` | … |`,
 * a key written alone, as `section.key` or as `key (shared)`): a default its own check refuses or that does not
 * survive the env's text form, a key without a description or an env var of its own, a key of the table the README
 * leaves out, a README row for a key nobody reads, a default the README shows wrong. None: [].
 */
export function configProblems(section: string, keys: ConfigTable, readmePath: string): string[] {
  const problems: string[] = [];
  const envNames = new Set<string>();
  for (const [key, spec] of Object.entries(keys)) {
    if (!accepts(spec, spec.default)) problems.push(`${key}: its default fails its own check`);
    const text = Array.isArray(spec.default) ? JSON.stringify(spec.default) : String(spec.default);
    const survives = isDeepStrictEqual(fromText(spec, text), spec.default);
    if (!survives) problems.push(`${key}: its default does not survive ${text}`);
    if (spec.description.length < 10) problems.push(`${key}: no description`);
    envNames.add(configEnvName(section, key));
  }
  if (envNames.size !== Object.keys(keys).length) problems.push("two keys share an env var");
  const rows = readmeRows(readFileSync(readmePath, "utf8"), section);
  for (const key of Object.keys(keys)) if (!rows.has(key)) problems.push(`README: no row for ${key}`);
  for (const [key, shown] of rows) {
    const spec = keys[key] ?? (SHARED_KEYS as ConfigTable)[key];
    if (!spec) problems.push(`README: a row for ${key}, which is not a key`);
    else if (!showsDefault(spec, shown)) {
      problems.push(`README: ${key}'s default is ${JSON.stringify(spec.default)}, not ${shown}`);
    }
  }
  return problems;
}

/** Each table row's key and the first code span of its second column. */
function readmeRows(readme: string, section: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const [, key, shown] of readme.matchAll(/^\| `([\w.-]+)`(?: \(shared\))? \| [^`|]*`([^`]*)`[^|]*\|/gm)) {
    rows.set(key!.startsWith(`${section}.`) ? key!.slice(section.length + 1) : key!, shown!);
  }
  return rows;
}

function showsDefault(spec: KeySpec, shown: string): boolean {
  if (typeof spec.default === "string") return shown === spec.default || parses(shown) === spec.default;
  return isDeepStrictEqual(parses(shown), spec.default);
}

function parses(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
