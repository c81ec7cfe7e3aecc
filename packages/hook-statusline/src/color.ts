import type { Env } from "@carryover/core";

export type Tone = "ok" | "warn" | "alert";

const SGR: Record<Tone, string> = { ok: "32", warn: "33", alert: "31" };

/** Green below the first level, red at the last of several levels or past the auto-compact point, yellow between. */
export function toneOf(percent: number, levels: readonly number[]): Tone {
  const sorted = [...levels].sort((a, b) => a - b);
  if (percent >= 100 || (sorted.length > 1 && percent >= sorted.at(-1)!)) return "alert";
  return sorted.length > 0 && percent >= sorted[0]! ? "warn" : "ok";
}

/** `auto` colours unless NO_COLOR is set to anything non-empty (no-color.org) or TERM is dumb. */
export function colorAllowed(mode: "auto" | "always" | "never", env: Env): boolean {
  if (mode !== "auto") return mode === "always";
  return !env.NO_COLOR && env.TERM !== "dumb";
}

export function paint(text: string, tone: Tone | null): string {
  return tone ? `\x1b[${SGR[tone]}m${text}\x1b[0m` : text;
}
