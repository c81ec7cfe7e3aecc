/**
 * One configurable value as plain data: its kind, its default and bounds, and what it is for (`carryover config`
 * lists it). A hook's keys are one such table in its own package; the keys several hooks share are one in core.
 */
export type KeySpec =
  | { kind: "number"; default: number; min: number; max: number; description: string }
  | { kind: "boolean"; default: boolean; description: string }
  | { kind: "string"; default: string; description: string }
  | { kind: "enum"; default: string; values: readonly string[]; description: string }
  | { kind: "percents"; default: readonly number[]; description: string };

export type ConfigTable = Readonly<Record<string, KeySpec>>;

/** The value a key holds once loaded. */
export type ValueOf<K extends KeySpec> = K extends { kind: "number" }
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

/** What a valid value is, for error messages: "a number from 1 to 100". */
export function expects(spec: KeySpec): string {
  switch (spec.kind) {
    case "number":
      return `a number from ${spec.min} to ${spec.max}`;
    case "boolean":
      return "true or false";
    case "string":
      return `a string of at most ${MAX_STRING_CHARS} characters`;
    case "enum":
      return `one of ${spec.values.join(", ")}`;
    case "percents":
      return "a list of percents from 1 to 100, like [60, 85]";
  }
}

export function accepts(spec: KeySpec, value: unknown): boolean {
  switch (spec.kind) {
    case "number":
      return typeof value === "number" && Number.isFinite(value) && value >= spec.min && value <= spec.max;
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
        value.every((item) => typeof item === "number" && item >= 1 && item <= 100)
      );
  }
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
      if (!trimmed.startsWith("[")) return trimmed === "" ? [] : trimmed.split(",").map((item) => Number(item.trim()));
      try {
        return JSON.parse(trimmed);
      } catch {
        return text;
      }
    default:
      return text;
  }
}

/** A table's defaults as values, lists copied. */
export function defaultsOf<T extends ConfigTable>(keys: T): ConfigValues<T> {
  const copy = (value: unknown) => (Array.isArray(value) ? [...value] : value);
  return Object.fromEntries(Object.entries(keys).map(([key, spec]) => [key, copy(spec.default)])) as ConfigValues<T>;
}
