import type { ConfigTable } from "@carryover/core";

/** Section `recovery` of carryover's config files; `CARRYOVER_RECOVERY_<KEY>` in the env. */
export const keys = {
  maxChars: { kind: "number", default: 4_000, min: 500, max: 10_000, description: "cap on the recovery context" },
  markerMaxAgeMs: {
    kind: "number",
    default: 604_800_000,
    min: 60_000,
    max: 31_536_000_000,
    description: "a compaction marker older than this is dropped",
  },
} as const satisfies ConfigTable;
