import type { ConfigTable } from "@carryover/core";

const PLACEHOLDERS = ["percent", "used", "limit", "left", "windowPercent", "window", "windowNote", "model"] as const;

/** Section `statusline` of carryover's config files; `CARRYOVER_STATUSLINE_<KEY>` in the env. */
export const keys = {
  format: {
    kind: "template",
    placeholders: PLACEHOLDERS,
    default: "ctx {percent} · {used} of {limit} to auto-compact · {windowNote} · {model}",
    description:
      "the line; placeholders {percent} {used} {limit} {left} {windowPercent} {window} {windowNote} {model}; " +
      "empty ' · ' segments are dropped",
  },
  formatNoAutoCompact: {
    kind: "template",
    placeholders: PLACEHOLDERS,
    default: "ctx {windowPercent} of window · {used} of {window} · auto-compact off · {model}",
    description: "the line when auto-compaction is off (DISABLE_AUTO_COMPACT, DISABLE_COMPACT); same placeholders",
  },
  color: {
    kind: "enum",
    default: "auto",
    values: ["auto", "always", "never"],
    description: "colour by level: auto follows NO_COLOR",
  },
  chainCommand: {
    kind: "string",
    default: "",
    description: "a statusline command to run with the same stdin and show with ours (set by the installer)",
  },
  chainPosition: {
    kind: "enum",
    default: "after",
    values: ["before", "after", "above", "below"],
    description: "where the chained statusline's output goes",
  },
  chainTimeoutMs: {
    kind: "number",
    default: 1_000,
    min: 50,
    max: 10_000,
    description: "how long the chained command may take before ours shows alone",
  },
} as const satisfies ConfigTable;
