/**
 * One configurable value as plain data: its kind, its default and bounds, and what it is for (`carryover config`
 * lists it). A hook's keys are one such table in its own package; the keys several hooks share are one in core.
 */
export type KeySpec =
  | { kind: "number"; default: number; min: number; max: number; description: string }
  | { kind: "boolean"; default: boolean; description: string }
  | { kind: "string"; default: string; description: string }
  | { kind: "enum"; default: string; values: readonly string[]; description: string }
  | { kind: "percents"; default: readonly number[]; description: string }
  /** An absolute path, or one under the home (`~/…`, expanded when loaded); empty: the key's default place. */
  | { kind: "path"; default: string; description: string }
  /** A text with `{name}` placeholders, only those named; `empty: true` lets it be "" (nothing said). */
  | { kind: "template"; default: string; placeholders: readonly string[]; empty?: true; description: string };

export type ConfigTable = Readonly<Record<string, KeySpec>>;

/** The value a key holds once loaded. */
type ValueOf<K extends KeySpec> = K extends { kind: "number" }
  ? number
  : K extends { kind: "boolean" }
    ? boolean
    : K extends { kind: "enum"; values: readonly (infer V)[] }
      ? V
      : K extends { kind: "percents" }
        ? number[]
        : string;

export type ConfigValues<T extends ConfigTable> = { -readonly [K in keyof T]: ValueOf<T[K]> };

const MAX_STRING_CHARS = 2000;
const MAX_PERCENTS = 10;

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/** What a valid value is, for error messages: "a whole number from 1 to 100". */
export function expects(spec: KeySpec): string {
  switch (spec.kind) {
    case "number":
      return `a whole number from ${spec.min} to ${spec.max}`;
    case "boolean":
      return "true or false";
    case "string":
      return `a string of at most ${MAX_STRING_CHARS} characters`;
    case "enum":
      return `one of ${spec.values.join(", ")}`;
    case "percents":
      return "a rising list of whole percents from 1 to 100, like [60, 85]";
    case "path":
      return "an absolute path or one starting with ~/ (empty: the default)";
    case "template": {
      const names = spec.placeholders.map((name) => `{${name}}`).join(" ");
      return `a text whose placeholders are among ${names}${spec.empty ? "" : ", not empty"}`;
    }
  }
}

export function accepts(spec: KeySpec, value: unknown): boolean {
  switch (spec.kind) {
    case "number":
      return typeof value === "number" && Number.isInteger(value) && value >= spec.min && value <= spec.max;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string" && value.length <= MAX_STRING_CHARS;
    case "enum":
      return typeof value === "string" && spec.values.includes(value);
    case "percents":
      return (
        Array.isArray(value) &&
        value.length <= MAX_PERCENTS &&
        value.every(
          (item, index) =>
            Number.isInteger(item) && item >= 1 && item <= 100 && (index === 0 || item > value[index - 1]),
        )
      );
    case "path":
      return typeof value === "string" && value.length <= MAX_STRING_CHARS && /^(?:$|\/|~$|~\/)/.test(value);
    case "template":
      return (
        typeof value === "string" &&
        value.length <= MAX_STRING_CHARS &&
        (spec.empty === true || value.trim() !== "") &&
        [...value.matchAll(PLACEHOLDER)].every((match) => spec.placeholders.includes(match[1]!))
      );
  }
}

/** A percent list as a level list: lowest first, each once (`85, 60, 60` is `[60, 85]`). */
function levelList(value: unknown): unknown {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "number")) return value;
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

/** Parses the text form used by env vars and `carryover config set`; `accepts` then judges the result. */
export function fromText(spec: KeySpec, text: string): unknown {
  const trimmed = text.trim();
  switch (spec.kind) {
    case "number":
      return trimmed === "" ? Number.NaN : Number(trimmed);
    case "boolean":
      return /^(true|1|yes|on)$/i.test(trimmed) ? true : /^(false|0|no|off)$/i.test(trimmed) ? false : text;
    case "percents":
      if (!trimmed.startsWith("["))
        return trimmed === "" ? [] : levelList(trimmed.split(",").map((item) => Number(item.trim())));
      try {
        return levelList(JSON.parse(trimmed));
      } catch {
        return text;
      }
    case "path":
      return trimmed;
    default:
      return text;
  }
}

/** A path value as its consumers take it: `~` is `home`. */
export function expandPath(value: string, home: string): string {
  return value === "~" ? home : value.startsWith("~/") ? `${home}${value.slice(1)}` : value;
}

/** A table's defaults as values, lists copied. */
export function defaultsOf<T extends ConfigTable>(keys: T): ConfigValues<T> {
  const copy = (value: unknown) => (Array.isArray(value) ? [...value] : value);
  return Object.fromEntries(Object.entries(keys).map(([key, spec]) => [key, copy(spec.default)])) as ConfigValues<T>;
}
