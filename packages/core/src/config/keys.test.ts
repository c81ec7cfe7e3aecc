import { describe, expect, it } from "vitest";
import { type ConfigKey, type ConfigSection, configKeys, sectionDefaults } from "./keys.ts";
import { configDescription } from "./descriptions.ts";
import { configEnvName } from "./load.ts";

const allKeys = Object.entries(configKeys()).flatMap(([section, keys]) =>
  Object.entries(keys as Record<string, ConfigKey>).map(([key, spec]) => ({ section, key, spec })),
);

describe("configKeys()", () => {
  it.each(allKeys)("$section.$key: its default passes its own check and it is described", ({ section, key, spec }) => {
    expect(spec.check(spec.default)).toBe(true);
    expect(configDescription(section as ConfigSection, key).length).toBeGreaterThan(10);
    expect(spec.expects.length).toBeGreaterThan(3);
  });

  it.each(allKeys)("$section.$key: its default survives the text form used by env vars", ({ spec }) => {
    const text = Array.isArray(spec.default) ? JSON.stringify(spec.default) : String(spec.default);
    expect(spec.fromText(text)).toEqual(spec.default);
  });

  it.each(Object.keys(configKeys()))("section %j: its plain defaults are its keys' defaults, lists copied", (section) => {
    const keys = configKeys()[section as ConfigSection] as Record<string, ConfigKey>;
    const defaults = sectionDefaults(section as ConfigSection) as Record<string, unknown>;
    expect(defaults).toEqual(Object.fromEntries(Object.entries(keys).map(([key, spec]) => [key, spec.default])));
    const lists = Object.values(defaults).filter(Array.isArray);
    for (const list of lists) list.push(1);
    expect(sectionDefaults(section as ConfigSection)).toEqual(Object.fromEntries(Object.entries(keys).map(([key, spec]) => [key, spec.default])));
  });

  it("gives every key its own env var, none taken by the switches", () => {
    const names = allKeys.map(({ section, key }) => configEnvName(section as ConfigSection, key));
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name).toMatch(/^CARRYOVER_[A-Z0-9_]+$/);
      expect(["CARRYOVER", "CARRYOVER_DISABLE", "CARRYOVER_DEBUG"]).not.toContain(name);
    }
  });
});

describe("key kinds", () => {
  const number = configKeys()["post-compact"].ledgerMaxEntries as ConfigKey;
  const boolean = configKeys()["pre-compact"].snapshot as ConfigKey;
  const percents = configKeys()[""].levels as ConfigKey;
  const choice = configKeys().statusline.color as ConfigKey;
  const text = configKeys()[""].changesFile as ConfigKey;

  it("a number is checked against its range, inclusive, and read from text", () => {
    expect([1, 50, 1000].map((value) => number.check(value))).toEqual([true, true, true]);
    expect([0, 1001, Number.NaN, Number.POSITIVE_INFINITY, "5"].map((value) => number.check(value))).toEqual([false, false, false, false, false]);
    expect(number.fromText(" 12 ")).toBe(12);
    expect(number.check(number.fromText(""))).toBe(false);
    expect(number.check(number.fromText("many"))).toBe(false);
  });

  it("a boolean reads the usual words, and nothing else", () => {
    expect(["true", "1", "YES", "on"].map((word) => boolean.fromText(word))).toEqual([true, true, true, true]);
    expect(["false", "0", "No", "off"].map((word) => boolean.fromText(word))).toEqual([false, false, false, false]);
    expect(boolean.check(boolean.fromText("maybe"))).toBe(false);
  });

  it("a percent list reads JSON or commas, and holds at most ten percents from 1 to 100", () => {
    expect(percents.fromText("[60, 85]")).toEqual([60, 85]);
    expect(percents.fromText(" 50, 70 ,90")).toEqual([50, 70, 90]);
    expect(percents.fromText("")).toEqual([]);
    expect(percents.check([])).toBe(true);
    expect(percents.check([0])).toBe(false);
    expect(percents.check([101])).toBe(false);
    expect(percents.check(Array(11).fill(50))).toBe(false);
    expect(percents.check(percents.fromText("60,x"))).toBe(false);
    expect(percents.check(percents.fromText("[60,"))).toBe(false);
  });

  it("a choice accepts only its values; a string only up to its length", () => {
    expect(choice.check("never")).toBe(true);
    expect(choice.check("Never")).toBe(false);
    expect(text.check("x".repeat(2000))).toBe(true);
    expect(text.check("x".repeat(2001))).toBe(false);
    expect(text.check(5)).toBe(false);
  });
});
