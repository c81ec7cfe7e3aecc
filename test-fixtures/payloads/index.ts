import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PAYLOADS_DIR = dirname(fileURLToPath(import.meta.url));

/** Absolute path of a captured file; `name` may omit `.json` (e.g. "pre-compact.auto"). */
export function payloadPath(name: string): string {
  const direct = join(PAYLOADS_DIR, name);
  if (existsSync(direct)) return direct;
  const withJson = `${direct}.json`;
  if (existsSync(withJson)) return withJson;
  throw new Error(`no captured payload ${JSON.stringify(name)} in ${PAYLOADS_DIR} (see its README.md for the list)`);
}

/** A captured payload parsed: `.json` as one value, `.jsonl` as an array of lines. Returns a fresh copy each call. */
export function payload<T = any>(name: string): T {
  const path = payloadPath(name);
  const text = readFileSync(path, "utf8");
  if (path.endsWith(".jsonl")) {
    return text
      .split("\n")
      .filter((line) => line.trim().length > 0)
      .map((line) => JSON.parse(line) as unknown) as T;
  }
  return JSON.parse(text) as T;
}

/** A captured text file (`compaction-prompt.*.txt`, `env.*.txt`, `messages.*.txt`). */
export function payloadText(name: string): string {
  return readFileSync(payloadPath(name), "utf8");
}
