import {
  autoCompactTokens,
  type Env,
  modelWindowTokens,
  readAutoCompactSettings,
  type UsageReading,
} from "@carryover/core";
import type { StatusLineFacts } from "./facts.ts";

export interface Sizes {
  windowTokens: number;
  /** Null when auto-compaction is off. */
  autoCompactTokens: number | null;
}

/** The window Claude Code reports, else the configured one (0: none), else the model's; and its auto-compact point. */
export function sizesOf(facts: StatusLineFacts, env: Env, projectDir: string, configuredWindowTokens: number): Sizes {
  const windowTokens = facts.windowTokens ?? (configuredWindowTokens || modelWindowTokens(facts.modelId));
  return {
    windowTokens,
    autoCompactTokens: autoCompactTokens(windowTokens, env, readAutoCompactSettings(env, projectDir)),
  };
}

/** Null before the first response: there is nothing to measure yet. */
export function readingOf(facts: StatusLineFacts, sizes: Sizes, nowMs: number): UsageReading | null {
  if (facts.contextTokens === null) return null;
  return {
    source: "statusline",
    contextTokens: facts.contextTokens,
    modelWindowTokens: sizes.windowTokens,
    autoCompactTokens: sizes.autoCompactTokens,
    model: facts.modelId,
    atMs: nowMs,
  };
}
