import { type ConfigTable, SHARED_KEYS } from "@carryover/core";
import { keys as memoryGuard } from "@carryover/hook-memory-guard/src/config.ts";
import { keys as pin } from "@carryover/hook-pin/src/config.ts";
import { keys as postCompact } from "@carryover/hook-post-compact/src/config.ts";
import { keys as preCompact } from "@carryover/hook-pre-compact/src/config.ts";
import { keys as prepReminder } from "@carryover/hook-prep-reminder/src/config.ts";
import { keys as recovery } from "@carryover/hook-recovery/src/config.ts";
import { keys as statusline } from "@carryover/hook-statusline/src/config.ts";

/** Every config section carryover reads: the shared keys under "", then each hook's own table under its name. */
export const CONFIG_TABLES: Readonly<Record<string, ConfigTable>> = {
  "": SHARED_KEYS,
  statusline,
  "prep-reminder": prepReminder,
  "post-compact": postCompact,
  recovery,
  "pre-compact": preCompact,
  "memory-guard": memoryGuard,
  pin,
};
