import type { ConfigTable } from "@carryover/core";

/** Section `post-compact` of carryover's config files; `CARRYOVER_POST_COMPACT_<KEY>` in the env. */
export const keys = {
  ledgerMaxEntries: {
    kind: "number",
    default: 50,
    min: 1,
    max: 1000,
    description: "compaction summaries kept per session in the ledger",
  },
} as const satisfies ConfigTable;
