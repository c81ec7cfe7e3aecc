import { describe, expect, it } from "vitest";
import { contextTokensOf, levelPercent, type UsageReading, usagePercents } from "./usage.ts";

function reading(contextTokens: number, autoCompactTokens: number | null, modelWindowTokens = 1_000_000): UsageReading {
  return { source: "statusline", contextTokens, modelWindowTokens, autoCompactTokens, atMs: 0 };
}

describe("contextTokensOf", () => {
  it("adds input, cache creation and cache read tokens, as Claude Code's used_percentage does", () => {
    // statusline.cache-read.json: 123,456 input + 20,000 cache read → 143,456.
    expect(
      contextTokensOf({ input_tokens: 123_456, cache_creation_input_tokens: 0, cache_read_input_tokens: 20_000 }),
    ).toBe(143_456);
    expect(contextTokensOf({ input_tokens: null, cache_read_input_tokens: 5 })).toBe(5);
    expect(contextTokensOf({})).toBe(0);
  });
});

describe("usagePercents", () => {
  it("gives the share of the window and of the auto-compact point, and what is left", () => {
    expect(usagePercents(reading(483_500, 967_000))).toEqual({
      windowPercent: 48.4,
      autoCompactPercent: 50,
      tokensToAutoCompact: 483_500,
    });
  });

  it("matches Claude Code's used_percentage for the same usage (20% of the window, past a 200K point)", () => {
    const percents = usagePercents(reading(200_000, 167_000));
    expect(percents.windowPercent).toBe(20);
    expect(percents.autoCompactPercent).toBe(119.8);
    expect(percents.tokensToAutoCompact).toBe(0);
  });

  it("has no auto-compact share when auto-compaction is off, and no share of an unknown window", () => {
    expect(usagePercents(reading(100_000, null))).toEqual({
      windowPercent: 10,
      autoCompactPercent: null,
      tokensToAutoCompact: null,
    });
    expect(usagePercents(reading(100, null, 0)).windowPercent).toBe(0);
  });
});

describe("levelPercent", () => {
  it("is the share of the auto-compact point, else of the window", () => {
    expect(levelPercent(reading(40_200, 67_000))).toBe(60);
    expect(levelPercent(reading(600_000, null))).toBe(60);
  });
});
