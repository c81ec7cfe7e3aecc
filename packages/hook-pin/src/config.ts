import type { ConfigTable } from "@carryover/core";

/** Section `pin` of carryover's config files; `CARRYOVER_PIN_<KEY>` in the env. */
export const keys = {
  everyTurns: {
    kind: "number",
    default: 1,
    min: 1,
    max: 1000,
    description: "re-inject pinned context every N prompts (always after a compaction)",
  },
  // Claude Code cuts hook context at 10,000 characters; 9,000 leaves room for the framing lines.
  maxBytes: {
    kind: "number",
    default: 8_000,
    min: 100,
    max: 9_000,
    description: "pinned text (both files together) above this is cut, with a warning",
  },
} as const satisfies ConfigTable;
