import type { ConfigTable } from "@carryover/core";

/** Section `pre-compact` of carryover's config files; `CARRYOVER_PRE_COMPACT_<KEY>` in the env. */
export const keys = {
  snapshot: {
    kind: "boolean",
    default: true,
    description: "write a mechanical state snapshot when compact-prep did not run",
  },
  memoryEntry: {
    kind: "boolean",
    default: true,
    description: "file a dated entry in the project's auto-memory (topic file + one MEMORY.md line)",
  },
  steering: {
    kind: "boolean",
    default: true,
    description: "ask the summarizer to carry earlier summaries, decisions and constraints forward",
  },
  steeringMaxChars: {
    kind: "number",
    default: 8_000,
    min: 500,
    max: 10_000,
    description: "cap on the instructions added to the compaction prompt",
  },
} as const satisfies ConfigTable;
