import { describe, expect, it } from "vitest";
import { autoCompactTokens } from "./auto-compact.ts";

const MILLION = 1_000_000;

describe("autoCompactTokens against Claude Code 2.1.332 (behaviour.md §2)", () => {
  it("1M window, no env: window − 20K − 13K", () => {
    expect(autoCompactTokens(MILLION, {})).toBe(967_000);
  });

  it("CLAUDE_CODE_AUTO_COMPACT_WINDOW caps the window", () => {
    expect(autoCompactTokens(MILLION, { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" })).toBe(67_000);
    expect(autoCompactTokens(MILLION, { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "200000" })).toBe(167_000);
  });

  it("a window below 100K is raised to 100K", () => {
    expect(autoCompactTokens(MILLION, { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "50000" })).toBe(67_000);
  });

  it("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE lowers it to that percent of the effective window", () => {
    expect(autoCompactTokens(MILLION, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "5" })).toBe(49_000);
    // A percent above the default point changes nothing; out-of-range and non-numbers are ignored.
    expect(autoCompactTokens(MILLION, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "99" })).toBe(967_000);
    for (const value of ["0", "101", "-5", "abc", ""]) {
      expect(autoCompactTokens(MILLION, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: value })).toBe(967_000);
    }
  });

  it("DISABLE_AUTO_COMPACT and DISABLE_COMPACT turn it off", () => {
    const window = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" };
    expect(autoCompactTokens(MILLION, { ...window, DISABLE_AUTO_COMPACT: "1" })).toBeNull();
    expect(autoCompactTokens(MILLION, { ...window, DISABLE_COMPACT: "1" })).toBeNull();
    expect(autoCompactTokens(MILLION, { DISABLE_AUTO_COMPACT: "true" })).toBeNull();
    expect(autoCompactTokens(MILLION, { DISABLE_AUTO_COMPACT: "0" })).toBe(967_000);
  });

  it("honours settings' autoCompactWindow, and the env var wins over it", () => {
    expect(autoCompactTokens(MILLION, {}, { autoCompactWindow: 200_000 })).toBe(167_000);
    expect(autoCompactTokens(MILLION, {}, { autoCompactWindow: 60_000 })).toBe(67_000);
    expect(
      autoCompactTokens(MILLION, { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" }, { autoCompactWindow: 200_000 }),
    ).toBe(67_000);
    expect(
      autoCompactTokens(MILLION, { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "junk" }, { autoCompactWindow: 200_000 }),
    ).toBe(167_000);
  });

  it("a cap above the model's window changes nothing", () => {
    expect(autoCompactTokens(200_000, { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "500000" })).toBe(167_000);
  });

  // Each row: usage that did not compact and usage that did, as observed with the mock.
  const observed: Array<{ env: Record<string, string>; stayed: number[]; compacted: number[] }> = [
    { env: {}, stayed: [960_000, 966_000], compacted: [967_500, 975_000] },
    { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" }, stayed: [60_000, 65_000], compacted: [67_000, 70_000] },
    { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "50000" }, stayed: [45_000], compacted: [] },
    { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "200000" }, stayed: [], compacted: [170_000] },
    { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "5" }, stayed: [40_000], compacted: [49_000] },
  ];
  it.each(observed)("sits between what stayed and what compacted with $env", ({ env, stayed, compacted }) => {
    const threshold = autoCompactTokens(MILLION, env)!;
    for (const tokens of stayed) expect(tokens).toBeLessThan(threshold);
    for (const tokens of compacted) expect(tokens).toBeGreaterThanOrEqual(threshold);
  });
});
