/** One configurable value: its default, what it accepts, and how to read it from a string. */
export interface ConfigKey<T = unknown> {
  default: T;
  /** What a valid value is, for error messages: "a number from 1 to 100". */
  expects: string;
  check(value: unknown): value is T;
  /** Parses the text form used by env vars and `carryover config set`. */
  fromText(text: string): unknown;
}

function numberKey(defaultValue: number, min: number, max: number): ConfigKey<number> {
  return {
    default: defaultValue,
    expects: `a number from ${min} to ${max}`,
    check: (value): value is number => typeof value === "number" && Number.isFinite(value) && value >= min && value <= max,
    fromText: (text) => (text.trim() === "" ? Number.NaN : Number(text)),
  };
}

function booleanKey(defaultValue: boolean): ConfigKey<boolean> {
  return {
    default: defaultValue,
    expects: "true or false",
    check: (value): value is boolean => typeof value === "boolean",
    fromText: (text) => (/^(true|1|yes|on)$/i.test(text) ? true : /^(false|0|no|off)$/i.test(text) ? false : text),
  };
}

function stringKey(defaultValue: string, maxChars = 2000): ConfigKey<string> {
  return {
    default: defaultValue,
    expects: `a string of at most ${maxChars} characters`,
    check: (value): value is string => typeof value === "string" && value.length <= maxChars,
    fromText: (text) => text,
  };
}

function enumKey<const T extends string>(defaultValue: T, values: readonly T[]): ConfigKey<T> {
  return {
    default: defaultValue,
    expects: `one of ${values.join(", ")}`,
    check: (value): value is T => typeof value === "string" && (values as readonly string[]).includes(value),
    fromText: (text) => text,
  };
}

function percentListKey(defaultValue: number[]): ConfigKey<number[]> {
  return {
    default: defaultValue,
    expects: "a list of percents from 1 to 100, like [60, 85]",
    check: (value): value is number[] =>
      Array.isArray(value) && value.length <= 10 && value.every((item) => typeof item === "number" && item >= 1 && item <= 100),
    fromText: (text) => {
      const trimmed = text.trim();
      if (trimmed.startsWith("[")) {
        try {
          return JSON.parse(trimmed);
        } catch {
          return text;
        }
      }
      return trimmed === "" ? [] : trimmed.split(",").map((item) => Number(item.trim()));
    },
  };
}

// Each section is built on first use: a table built at load time costs every hook's start (~0.5 ms for all
// of it, measured), and a hook needs the shared section and its own.
const SECTIONS = {
  "": () => ({
    levels: percentListKey([60, 85]),
    stateDir: stringKey(""),
    freshReadingMs: numberKey(300_000, 1_000, 86_400_000),
    changesFile: stringKey("CHANGES_SESSION.md"),
    contextWindowTokens: numberKey(0, 0, 10_000_000),
  }),
  statusline: () => ({
    format: stringKey("ctx {percent} · {used} of {limit} to auto-compact · {windowNote} · {model}"),
    formatNoAutoCompact: stringKey("ctx {windowPercent} of window · {used} of {window} · auto-compact off · {model}"),
    color: enumKey("auto", ["auto", "always", "never"]),
    chainCommand: stringKey(""),
    chainPosition: enumKey("after", ["before", "after", "above", "below"]),
    chainTimeoutMs: numberKey(1_000, 50, 10_000),
  }),
  "prep-reminder": () => ({
    message: stringKey(
      "Context at {percent}% of the auto-compact point ({used} of {limit} tokens). Run /compact-prep now to save plan, decisions and tasks before auto-compaction.",
    ),
    context: stringKey(
      "Context usage is at {percent}% of the auto-compact point ({used} of {limit} tokens); auto-compaction replaces the history with a summary at 100%. The user has been told that /compact-prep saves plan, decisions and tasks first.",
    ),
    dueMessage: stringKey(
      "Context at {percent}% of the auto-compact point ({used} of {limit} tokens): Claude Code compacts before answering this prompt.",
    ),
    mutedLevels: percentListKey([]),
  }),
  "post-compact": () => ({
    ledgerMaxEntries: numberKey(50, 1, 1000),
  }),
  recovery: () => ({
    maxChars: numberKey(4_000, 500, 10_000),
    markerMaxAgeMs: numberKey(604_800_000, 60_000, 31_536_000_000),
  }),
  "pre-compact": () => ({
    snapshot: booleanKey(true),
    memoryEntry: booleanKey(true),
    steering: booleanKey(true),
    steeringMaxChars: numberKey(8_000, 500, 10_000),
  }),
  "memory-guard": () => ({
    headroomPercent: numberKey(80, 10, 100),
  }),
  pin: () => ({
    everyTurns: numberKey(1, 1, 1000),
    // Claude Code cuts hook context at 10,000 characters; 9,000 leaves room for the framing lines.
    maxBytes: numberKey(8_000, 100, 9_000),
  }),
} satisfies Record<string, () => Record<string, ConfigKey<any>>>;

export type ConfigSection = keyof typeof SECTIONS;
type SectionKeys<S extends ConfigSection> = ReturnType<(typeof SECTIONS)[S]>;
type ValueOf<K> = K extends ConfigKey<infer T> ? T : never;
export type SectionConfig<S extends ConfigSection> = { -readonly [K in keyof SectionKeys<S>]: ValueOf<SectionKeys<S>[K]> };

const built: Partial<Record<ConfigSection, unknown>> = {};

/**
 * The keys of one section. The shared section ("") holds what several hooks agree on; the others are one
 * hook each. Adding a key to SECTIONS makes it configurable, validated and listed.
 */
export function sectionKeys<S extends ConfigSection>(section: S): SectionKeys<S> {
  return (built[section] ??= SECTIONS[section]()) as SectionKeys<S>;
}

/** Every key carryover reads, by section. */
export function configKeys(): { [S in ConfigSection]: SectionKeys<S> } {
  return Object.fromEntries((Object.keys(SECTIONS) as ConfigSection[]).map((section) => [section, sectionKeys(section)])) as {
    [S in ConfigSection]: SectionKeys<S>;
  };
}
