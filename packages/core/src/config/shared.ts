import type { ConfigTable } from "./table.ts";

/** The keys several hooks agree on, at the top level of a config file (`CARRYOVER_<KEY>` in the env). */
export const SHARED_KEYS = {
  levels: {
    kind: "percents",
    default: [60, 85],
    description: "context levels (percent of the auto-compact point) that raise a marker and a reminder",
  },
  stateDir: {
    kind: "path",
    default: "",
    description:
      "directory of compact-prep state files; " +
      "empty means claude-<uid>/carryover/compact-state in Claude Code's temp dir",
  },
  freshReadingMs: {
    kind: "number",
    default: 300_000,
    min: 1_000,
    max: 86_400_000,
    description: "how long a statusline reading stands in for reading the transcript",
  },
  changesFile: {
    kind: "string",
    default: "CHANGES_SESSION.md",
    description: "the pre-compact changes log, relative to the project root; empty turns it off",
  },
  contextWindowTokens: {
    kind: "number",
    default: 0,
    min: 0,
    max: 10_000_000,
    description: "model window in tokens when no statusline reported it; 0 guesses from the model id",
  },
} as const satisfies ConfigTable;
