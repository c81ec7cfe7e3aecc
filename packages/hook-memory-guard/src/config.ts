import type { ConfigTable } from "@carryover/core";

/** Section `memory-guard` of carryover's config files; `CARRYOVER_MEMORY_GUARD_<KEY>` in the env. */
export const keys = {
  headroomPercent: {
    kind: "number",
    default: 80,
    min: 10,
    max: 100,
    description: "warn when MEMORY.md reaches this percent of 200 lines or 25 KB",
  },
} as const satisfies ConfigTable;
