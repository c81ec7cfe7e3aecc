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

// The defaults are plain data, apart from the key tables: a hook with no config file and no `CARRYOVER_*`
// config variable takes them as they are, and never builds a table.
const DEFAULTS = {
  "": {
    levels: [60, 85],
    stateDir: "",
    freshReadingMs: 300_000,
    changesFile: "CHANGES_SESSION.md",
    contextWindowTokens: 0,
  },
  statusline: {
    format: "ctx {percent} · {used} of {limit} to auto-compact · {windowNote} · {model}",
    formatNoAutoCompact: "ctx {windowPercent} of window · {used} of {window} · auto-compact off · {model}",
    color: "auto",
    chainCommand: "",
    chainPosition: "after",
    chainTimeoutMs: 1_000,
  },
  "prep-reminder": {
    message:
      "Context at {percent}% of the auto-compact point ({used} of {limit} tokens). Run /compact-prep now to save plan, decisions and tasks before auto-compaction.",
    context:
      "Context usage is at {percent}% of the auto-compact point ({used} of {limit} tokens); auto-compaction replaces the history with a summary at 100%. The user has been told that /compact-prep saves plan, decisions and tasks first.",
    dueMessage: "Context at {percent}% of the auto-compact point ({used} of {limit} tokens): Claude Code compacts before answering this prompt.",
    mutedLevels: [],
  },
  "post-compact": { ledgerMaxEntries: 50 },
  recovery: { maxChars: 4_000, markerMaxAgeMs: 604_800_000 },
  "pre-compact": { snapshot: true, memoryEntry: true, steering: true, steeringMaxChars: 8_000 },
  "memory-guard": { headroomPercent: 80 },
  pin: { everyTurns: 1, maxBytes: 8_000 },
} as const;

// Each section's table is built on first use: a table built at load time costs every hook's start (~0.5 ms
// for all of them, measured), and a hook needs the shared section and its own.
const SECTIONS = {
  "": (defaults = DEFAULTS[""]) => ({
    levels: percentListKey([...defaults.levels]),
    stateDir: stringKey(defaults.stateDir),
    freshReadingMs: numberKey(defaults.freshReadingMs, 1_000, 86_400_000),
    changesFile: stringKey(defaults.changesFile),
    contextWindowTokens: numberKey(defaults.contextWindowTokens, 0, 10_000_000),
  }),
  statusline: (defaults = DEFAULTS.statusline) => ({
    format: stringKey(defaults.format),
    formatNoAutoCompact: stringKey(defaults.formatNoAutoCompact),
    color: enumKey(defaults.color, ["auto", "always", "never"]),
    chainCommand: stringKey(defaults.chainCommand),
    chainPosition: enumKey(defaults.chainPosition, ["before", "after", "above", "below"]),
    chainTimeoutMs: numberKey(defaults.chainTimeoutMs, 50, 10_000),
  }),
  "prep-reminder": (defaults = DEFAULTS["prep-reminder"]) => ({
    message: stringKey(defaults.message),
    context: stringKey(defaults.context),
    dueMessage: stringKey(defaults.dueMessage),
    mutedLevels: percentListKey([...defaults.mutedLevels]),
  }),
  "post-compact": (defaults = DEFAULTS["post-compact"]) => ({
    ledgerMaxEntries: numberKey(defaults.ledgerMaxEntries, 1, 1000),
  }),
  recovery: (defaults = DEFAULTS.recovery) => ({
    maxChars: numberKey(defaults.maxChars, 500, 10_000),
    markerMaxAgeMs: numberKey(defaults.markerMaxAgeMs, 60_000, 31_536_000_000),
  }),
  "pre-compact": (defaults = DEFAULTS["pre-compact"]) => ({
    snapshot: booleanKey(defaults.snapshot),
    memoryEntry: booleanKey(defaults.memoryEntry),
    steering: booleanKey(defaults.steering),
    steeringMaxChars: numberKey(defaults.steeringMaxChars, 500, 10_000),
  }),
  "memory-guard": (defaults = DEFAULTS["memory-guard"]) => ({
    headroomPercent: numberKey(defaults.headroomPercent, 10, 100),
  }),
  pin: (defaults = DEFAULTS.pin) => ({
    everyTurns: numberKey(defaults.everyTurns, 1, 1000),
    // Claude Code cuts hook context at 10,000 characters; 9,000 leaves room for the framing lines.
    maxBytes: numberKey(defaults.maxBytes, 100, 9_000),
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

/** A section's defaults as plain values, without building its key table; lists are copied. */
export function sectionDefaults<S extends ConfigSection>(section: S): SectionConfig<S> {
  const entries = Object.entries(DEFAULTS[section]).map(([key, value]) => [key, Array.isArray(value) ? [...value] : value]);
  return Object.fromEntries(entries) as SectionConfig<S>;
}
