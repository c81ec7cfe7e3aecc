import { type Env, isTruthy } from "../env.ts";

/** Claude Code 2.1.332 reserves this much of the window for the summary: effective = window − 20K. */
const SUMMARY_RESERVE_TOKENS = 20_000;
/** …and compacts when fewer than this many effective tokens are left. */
const AUTO_COMPACT_BUFFER_TOKENS = 13_000;
/** `CLAUDE_CODE_AUTO_COMPACT_WINDOW` below this is silently raised to it. */
const MIN_AUTO_COMPACT_WINDOW = 100_000;

export interface AutoCompactSettings {
  /** `autoCompactWindow` from Claude Code's settings.json, when set. */
  autoCompactWindow?: number | undefined;
}

function positiveInt(value: string | number | undefined): number | undefined {
  const number = typeof value === "string" ? Number(value.trim()) : value;
  return number !== undefined && Number.isFinite(number) && number > 0 ? Math.floor(number) : undefined;
}

/**
 * The token count at which Claude Code auto-compacts, as observed in 2.1.332: the window (capped by
 * `CLAUDE_CODE_AUTO_COMPACT_WINDOW` or settings' `autoCompactWindow`, minimum 100K) minus 20K, minus
 * 13K; `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` lowers it to that percent of the effective window.
 * Null when auto-compaction is off (`DISABLE_AUTO_COMPACT`, `DISABLE_COMPACT`).
 */
export function autoCompactTokens(
  modelWindowTokens: number,
  env: Env,
  settings: AutoCompactSettings = {},
): number | null {
  if (isTruthy(env.DISABLE_AUTO_COMPACT) || isTruthy(env.DISABLE_COMPACT)) return null;
  let window = modelWindowTokens;
  const cap = positiveInt(env.CLAUDE_CODE_AUTO_COMPACT_WINDOW) ?? positiveInt(settings.autoCompactWindow);
  if (cap !== undefined) window = Math.min(window, Math.max(cap, MIN_AUTO_COMPACT_WINDOW));
  const effective = window - SUMMARY_RESERVE_TOKENS;
  let threshold = effective - AUTO_COMPACT_BUFFER_TOKENS;
  const percent = positiveInt(env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE);
  if (percent !== undefined && percent <= 100) threshold = Math.min(threshold, Math.floor((effective * percent) / 100));
  return Math.max(threshold, 1);
}
