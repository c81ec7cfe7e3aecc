import { describe, expect, it } from "vitest";
import {
  array,
  boolean,
  type Guard,
  type Infer,
  issuesOf,
  literal,
  looseObject,
  nullable,
  number,
  oneOf,
  optional,
  record,
  string,
  unknown,
} from "./guards.ts";

const accepts = (guard: Guard<unknown>, value: unknown) => issuesOf(guard, value).length === 0;

describe("leaf guards", () => {
  it("string: type, minLength, pattern", () => {
    expect(accepts(string(), "")).toBe(true);
    expect(accepts(string(), 1)).toBe(false);
    expect(accepts(string({ minLength: 2 }), "a")).toBe(false);
    expect(accepts(string({ minLength: 2 }), "ab")).toBe(true);
    expect(accepts(string({ pattern: /^a+$/ }), "aaa")).toBe(true);
    expect(accepts(string({ pattern: /^a+$/ }), "aab")).toBe(false);
  });

  it("number: finite numbers only", () => {
    expect(accepts(number(), 0)).toBe(true);
    expect(accepts(number(), -1.5)).toBe(true);
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, "1", null]) expect(accepts(number(), value)).toBe(false);
  });

  it("number: a minimum, integers only", () => {
    expect(accepts(number({ min: 1 }), 1)).toBe(true);
    expect(accepts(number({ min: 1 }), 0.5)).toBe(false);
    expect(accepts(number({ integer: true }), 3)).toBe(true);
    expect(accepts(number({ integer: true }), 3.5)).toBe(false);
  });

  it("boolean, unknown", () => {
    expect(accepts(boolean(), false)).toBe(true);
    expect(accepts(boolean(), 0)).toBe(false);
    for (const value of [undefined, null, {}, "x"]) expect(accepts(unknown(), value)).toBe(true);
  });

  it("literal and oneOf compare exactly", () => {
    expect(accepts(literal("Stop"), "Stop")).toBe(true);
    expect(accepts(literal("Stop"), "stop")).toBe(false);
    expect(accepts(literal(1), "1")).toBe(false);
    expect(accepts(oneOf(["manual", "auto"]), "auto")).toBe(true);
    expect(accepts(oneOf(["manual", "auto"]), "sometimes")).toBe(false);
  });
});

describe("optional and nullable", () => {
  it("optional accepts undefined, not null; nullable the reverse", () => {
    expect(accepts(optional(string()), undefined)).toBe(true);
    expect(accepts(optional(string()), null)).toBe(false);
    expect(accepts(nullable(string()), null)).toBe(true);
    expect(accepts(nullable(string()), undefined)).toBe(false);
    expect(accepts(optional(nullable(string())), null)).toBe(true);
    expect(accepts(optional(nullable(string())), 3)).toBe(false);
  });

  it("a required key may not be absent, an optional one may", () => {
    expect(issuesOf(looseObject({ a: string() }), {})).toEqual([["a"]]);
    expect(issuesOf(looseObject({ a: optional(string()) }), {})).toEqual([]);
  });
});

describe("looseObject", () => {
  const guard = looseObject({
    id: string({ minLength: 1 }),
    size: optional(number()),
    usage: optional(nullable(looseObject({ input: number(), output: optional(number()) }))),
  });

  it("accepts the payload itself, every extra key kept", () => {
    const payload = { id: "x", extra: [1, 2], usage: { input: 3, later: { a: 1 } } };
    const issues: string[][] = [];
    expect(guard(payload, [], issues)).toBe(true);
    expect(issues).toEqual([]);
    const typed: Infer<typeof guard> = payload;
    expect(typed).toEqual({ id: "x", extra: [1, 2], usage: { input: 3, later: { a: 1 } } });
  });

  it("refuses what is not a plain object, at the object's path", () => {
    for (const value of [null, [], "x", 1, undefined]) expect(issuesOf(guard, value)).toEqual([[]]);
    expect(issuesOf(guard, { id: "x", usage: [] })).toEqual([["usage"]]);
  });

  it("reports every refused field, nested paths included, in shape order", () => {
    expect(issuesOf(guard, { usage: { input: "3", output: Number.NaN }, size: "1" })).toEqual([
      ["id"],
      ["size"],
      ["usage", "input"],
      ["usage", "output"],
    ]);
    expect(issuesOf(guard, { id: "x", size: 1, usage: { output: 2 } })).toEqual([["usage", "input"]]);
  });

  it("refuses the object when any field fails, not only the last", () => {
    expect(guard({ id: "", size: 1 }, [], [])).toBe(false);
    expect(guard({ id: "x", size: 1 }, [], [])).toBe(true);
  });

  it("infers required, optional and nullable keys", () => {
    type Out = Infer<typeof guard>;
    const minimal: Out = { id: "x" };
    // @ts-expect-error id is required
    const noId: Out = { size: 1 };
    // @ts-expect-error size is a number
    const badSize: Out = { id: "x", size: "1" };
    const usage: Out["usage"] = null;
    expect([minimal, noId, badSize, usage]).toHaveLength(4);
  });
});

describe("array and record", () => {
  it("check every item, each refused one by its index or key", () => {
    expect(issuesOf(array(string()), ["a", 1, "c", null])).toEqual([["1"], ["3"]]);
    expect(issuesOf(array(string()), {})).toEqual([[]]);
    expect(issuesOf(record(number()), { a: 1, b: "2" })).toEqual([["b"]]);
    expect(issuesOf(record(number()), [1])).toEqual([[]]);
    const list = looseObject({ list: array(looseObject({ n: number() })) });
    expect(issuesOf(list, { list: [{ n: 1 }, { n: "x" }] })).toEqual([["list", "1", "n"]]);
  });
});
