/** One configurable value: its default, what it accepts, and how to read it from a string. */
export interface ConfigKey<T = unknown> {
  default: T;
  describe: string;
  /** What a valid value is, for error messages: "a number from 1 to 100". */
  expects: string;
  check(value: unknown): value is T;
  /** Parses the text form used by env vars and `carryover config set`. */
  fromText(text: string): unknown;
}

function numberKey(defaultValue: number, min: number, max: number, describe: string): ConfigKey<number> {
  return {
    default: defaultValue,
    describe,
    expects: `a number from ${min} to ${max}`,
    check: (value): value is number => typeof value === "number" && Number.isFinite(value) && value >= min && value <= max,
    fromText: (text) => (text.trim() === "" ? Number.NaN : Number(text)),
  };
}

function booleanKey(defaultValue: boolean, describe: string): ConfigKey<boolean> {
  return {
    default: defaultValue,
    describe,
    expects: "true or false",
    check: (value): value is boolean => typeof value === "boolean",
    fromText: (text) => (/^(true|1|yes|on)$/i.test(text) ? true : /^(false|0|no|off)$/i.test(text) ? false : text),
  };
}

function stringKey(defaultValue: string, describe: string, maxChars = 2000): ConfigKey<string> {
  return {
    default: defaultValue,
    describe,
    expects: `a string of at most ${maxChars} characters`,
    check: (value): value is string => typeof value === "string" && value.length <= maxChars,
    fromText: (text) => text,
  };
}

function enumKey<const T extends string>(defaultValue: T, values: readonly T[], describe: string): ConfigKey<T> {
  return {
    default: defaultValue,
    describe,
    expects: `one of ${values.join(", ")}`,
    check: (value): value is T => typeof value === "string" && (values as readonly string[]).includes(value),
    fromText: (text) => text,
  };
}

function percentListKey(defaultValue: number[], describe: string): ConfigKey<number[]> {
  return {
    default: defaultValue,
    describe,
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
    levels: percentListKey([60, 85], "context levels (percent of the auto-compact point) that raise a marker and a reminder"),
    stateDir: stringKey("", "directory of compact-prep state files; empty means ${TMPDIR:-/tmp}/claude-compact-state"),
    freshReadingMs: numberKey(300_000, 1_000, 86_400_000, "how long a statusline reading stands in for reading the transcript"),
    changesFile: stringKey("CHANGES_SESSION.md", "the pre-compact changes log, relative to the project root; empty turns it off"),
    contextWindowTokens: numberKey(0, 0, 10_000_000, "model window in tokens when no statusline reported it; 0 guesses from the model id"),
  }),
  statusline: () => ({
    format: stringKey(
      "ctx {percent} · {used} of {limit} to auto-compact · {windowNote} · {model}",
      "the line; placeholders {percent} {used} {limit} {left} {windowPercent} {window} {windowNote} {model}; empty ' · ' segments are dropped",
    ),
    formatNoAutoCompact: stringKey(
      "ctx {windowPercent} of window · {used} of {window} · auto-compact off · {model}",
      "the line when auto-compaction is off (DISABLE_AUTO_COMPACT, DISABLE_COMPACT); same placeholders",
    ),
    color: enumKey("auto", ["auto", "always", "never"], "colour by level: auto follows NO_COLOR"),
    chainCommand: stringKey("", "a statusline command to run with the same stdin and show with ours (set by the installer)"),
    chainPosition: enumKey("after", ["before", "after", "above", "below"], "where the chained statusline's output goes"),
    chainTimeoutMs: numberKey(1_000, 50, 10_000, "how long the chained command may take before ours shows alone"),
  }),
  "prep-reminder": () => ({
    message: stringKey(
      "Context at {percent}% of the auto-compact point ({used} of {limit} tokens). Run /compact-prep now to save plan, decisions and tasks before auto-compaction.",
      "what the user is shown when a level is crossed; placeholders {percent} {used} {limit} {left} {level}",
    ),
    context: stringKey(
      "Context usage is at {percent}% of the auto-compact point ({used} of {limit} tokens); auto-compaction replaces the history with a summary at 100%. The user has been told that /compact-prep saves plan, decisions and tasks first.",
      "the fact the agent is given with the reminder (facts, not orders); empty gives the agent nothing",
    ),
    dueMessage: stringKey(
      "Context at {percent}% of the auto-compact point ({used} of {limit} tokens): Claude Code compacts before answering this prompt.",
      "what the user is shown instead when the context is already past the auto-compact point (the agent is told nothing: it would read it after the compaction)",
    ),
    mutedLevels: percentListKey([], "levels that raise no reminder"),
  }),
  "post-compact": () => ({
    ledgerMaxEntries: numberKey(50, 1, 1000, "compaction summaries kept per session in the ledger"),
  }),
  recovery: () => ({
    maxChars: numberKey(4_000, 500, 10_000, "cap on the recovery context"),
    markerMaxAgeMs: numberKey(604_800_000, 60_000, 31_536_000_000, "a compaction marker older than this is dropped"),
  }),
  "pre-compact": () => ({
    snapshot: booleanKey(true, "write a mechanical state snapshot when compact-prep did not run"),
    memoryEntry: booleanKey(true, "file a dated entry in the project's auto-memory (topic file + one MEMORY.md line)"),
    steering: booleanKey(true, "ask the summarizer to carry earlier summaries, decisions and constraints forward"),
    steeringMaxChars: numberKey(8_000, 500, 10_000, "cap on the instructions added to the compaction prompt"),
  }),
  "memory-guard": () => ({
    headroomPercent: numberKey(80, 10, 100, "warn when MEMORY.md reaches this percent of 200 lines or 25 KB"),
  }),
  pin: () => ({
    everyTurns: numberKey(1, 1, 1000, "re-inject pinned context every N prompts (always after a compaction)"),
    // Claude Code cuts hook context at 10,000 characters; 9,000 leaves room for the framing lines.
    maxBytes: numberKey(8_000, 100, 9_000, "pinned text (both files together) above this is cut, with a warning"),
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
