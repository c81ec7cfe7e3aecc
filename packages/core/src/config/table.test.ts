import { describe, expect, it } from "vitest";
import { configEnvName } from "./load.ts";
import { SHARED_KEYS } from "./shared.ts";
import { accepts, defaultsOf, expandPath, expects, fromText, type KeySpec } from "./table.ts";

const shared = Object.entries(SHARED_KEYS) as [string, KeySpec][];

describe("the shared keys", () => {
  it.each(shared)("%s: its default passes its own check, survives the env's text form, and is described", (_, spec) => {
    expect(accepts(spec, spec.default)).toBe(true);
    const text = Array.isArray(spec.default) ? JSON.stringify(spec.default) : String(spec.default);
    expect(fromText(spec, text)).toEqual(spec.default);
    expect(spec.description.length).toBeGreaterThan(10);
  });

  it("each has an env var of its own, none taken by the switches", () => {
    const names = shared.map(([key]) => configEnvName("", key));
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(["CARRYOVER", "CARRYOVER_DISABLE", "CARRYOVER_DEBUG"]).not.toContain(name);
  });

  it("defaultsOf copies lists, so a hook changing one leaves the table alone", () => {
    defaultsOf(SHARED_KEYS).levels.push(99);
    expect(defaultsOf(SHARED_KEYS).levels).toEqual([60, 85]);
  });
});

describe("key kinds", () => {
  const number: KeySpec = { kind: "number", default: 50, min: 1, max: 1000, description: "n" };
  const boolean: KeySpec = { kind: "boolean", default: true, description: "b" };
  const percents: KeySpec = { kind: "percents", default: [60, 85], description: "p" };
  const choice: KeySpec = { kind: "enum", default: "auto", values: ["auto", "always", "never"], description: "e" };
  const text: KeySpec = { kind: "string", default: "", description: "s" };

  it("a number is checked against its range, inclusive, and read from text", () => {
    expect([1, 50, 1000].map((value) => accepts(number, value))).toEqual([true, true, true]);
    const refused = [0, 1001, Number.NaN, Number.POSITIVE_INFINITY, "5"].map((value) => accepts(number, value));
    expect(refused).toEqual([false, false, false, false, false]);
    expect(fromText(number, " 12 ")).toBe(12);
    expect(accepts(number, fromText(number, ""))).toBe(false);
    expect(accepts(number, fromText(number, "many"))).toBe(false);
    expect(expects(number)).toBe("a whole number from 1 to 1000");
  });

  it("a boolean reads the usual words, and nothing else", () => {
    expect(["true", "1", "YES", "on"].map((word) => fromText(boolean, word))).toEqual([true, true, true, true]);
    expect(["false", "0", "No", "off"].map((word) => fromText(boolean, word))).toEqual([false, false, false, false]);
    expect(accepts(boolean, fromText(boolean, "maybe"))).toBe(false);
  });

  it("a percent list reads JSON or commas, and holds at most ten percents from 1 to 100", () => {
    expect(fromText(percents, "[60, 85]")).toEqual([60, 85]);
    expect(fromText(percents, " 50, 70 ,90")).toEqual([50, 70, 90]);
    expect(fromText(percents, "")).toEqual([]);
    expect(accepts(percents, [])).toBe(true);
    expect([[0], [101], Array(11).fill(50)].map((value) => accepts(percents, value))).toEqual([false, false, false]);
    expect(accepts(percents, fromText(percents, "60,x"))).toBe(false);
    expect(accepts(percents, fromText(percents, "[60,"))).toBe(false);
  });

  it("a choice accepts only its values; a string only up to 2000 characters", () => {
    expect(accepts(choice, "never")).toBe(true);
    expect(accepts(choice, "Never")).toBe(false);
    expect(expects(choice)).toBe("one of auto, always, never");
    expect(accepts(text, "x".repeat(2000))).toBe(true);
    expect(accepts(text, "x".repeat(2001))).toBe(false);
    expect(accepts(text, 5)).toBe(false);
  });

  it("a number is a whole one; a level list reads lowest first, each once, and a file's must be so", () => {
    expect(accepts(number, 3.5)).toBe(false);
    expect(fromText(percents, "85, 60, 60")).toEqual([60, 85]);
    expect(fromText(percents, "[85, 60]")).toEqual([60, 85]);
    expect([[85, 60], [60, 60], [60.5]].map((value) => accepts(percents, value))).toEqual([false, false, false]);
    // A file's [85, 60] is refused: the message says why, since both are whole percents.
    expect(expects(percents)).toBe("a rising list of whole percents from 1 to 100, like [60, 85]");
  });

  it("a path is absolute or under the home, never relative; ~ is expanded for its consumers", () => {
    const path: KeySpec = { kind: "path", default: "", description: "p" };
    expect(["", "/srv/state", "~", "~/notes/state"].map((value) => accepts(path, value))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["state", "./state", "~user/state", "$HOME/state"].map((value) => accepts(path, value))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(expandPath("~/notes", "/home/me")).toBe("/home/me/notes");
    expect(expandPath("~", "/home/me")).toBe("/home/me");
    expect(expandPath("/srv", "/home/me")).toBe("/srv");
  });

  it("a template names only its placeholders, and is empty only where allowed", () => {
    const line: KeySpec = {
      kind: "template",
      default: "{percent}",
      placeholders: ["percent", "model"],
      description: "t",
    };
    const optional: KeySpec = { ...line, empty: true };
    expect(["ctx {percent} · {model}", "plain text"].map((value) => accepts(line, value))).toEqual([true, true]);
    expect(["{percnt}", "", "  "].map((value) => accepts(line, value))).toEqual([false, false, false]);
    expect(accepts(optional, "")).toBe(true);
    expect(expects(line)).toBe("a text whose placeholders are among {percent} {model}, not empty");
  });
});
