import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { eagerFunctions } from "./eager.mjs";

const SCRIPT = [
  '"use strict";',
  "const seen = [];",
  "seen.push(typeof later, later(), strictThis(), count(3), later.name);",
  "function later() { return inner() + '/' + tail(); function inner() { return 'in'; } }",
  "function count(n) { return n === 0 ? 0 : 1 + count(n - 1); }",
  "function strictThis() { return this === undefined; }",
  "function tail() { return 'tail'; }",
  "async function job() { return 'job'; }",
  "function swapped() { return 'first'; }",
  "swapped = () => 'second';",
  "const object = { method() { return 1; }, get getter() { return 2; }, plain: function () { return 3; } };",
  "class Klass { method() { return 4; } }",
  "{ function inBlock() { return 5; } seen.push(inBlock()); }",
  "seen.push(swapped(), object.method(), object.getter, object.plain(), new Klass().method(), job.name);",
  "job().then((value) => seen.push(value));",
].join("\n");

async function run(source: string): Promise<unknown[]> {
  const context: { seen?: unknown[] } = {};
  runInNewContext(`${source}\nthis.seen = seen;`, context);
  await new Promise((resolve) => setImmediate(resolve));
  return context.seen ?? [];
}

describe("eagerFunctions", () => {
  it("leaves what the script does as it was, the declarations still callable before their place", async () => {
    const { source } = eagerFunctions(SCRIPT, () => true);
    expect(await run(source)).toEqual(await run(SCRIPT));
    expect(await run(source)).toEqual(["function", "in/tail", true, 3, "later", 5, "second", 1, 2, 3, 4, "job", "job"]);
  });

  it("moves declarations to the top of their scope, after the directives, in parentheses", () => {
    const { source, functions } = eagerFunctions(SCRIPT, () => true);
    expect(source.startsWith('"use strict";var later=(function later() {')).toBe(true);
    expect(source).toContain("later() { var inner=(function inner() { return 'in'; });return inner()");
    expect(source).toContain("var job=(async function job() {");
    expect(source).toContain("plain: (function () { return 3; })");
    // A name assigned elsewhere, a declaration in a block, methods and getters stay as they were.
    expect(source).toContain("\nfunction swapped() {");
    expect(source).toContain("{ function inBlock() {");
    expect(source).toContain("method() { return 1; }, get getter() {");
    expect(functions).toBe(7);
  });

  it("rewrites only the functions chosen by their start", () => {
    const start = SCRIPT.indexOf("function tail");
    const { source, functions } = eagerFunctions(SCRIPT, (at) => at === start);
    expect(functions).toBe(1);
    expect(source).toContain('"use strict";var tail=(function tail() {');
    expect(source).toContain("\nfunction later() {");
  });

  it("keeps an sh prelude's first line", async () => {
    const script = `#!/bin/sh\n":" //; exec node "$0"\n${SCRIPT}`;
    const { source } = eagerFunctions(script, () => true);
    expect(source.startsWith('#!/bin/sh\n":" //; exec node "$0"\n"use strict";var later=(')).toBe(true);
  });

  it("refuses what it cannot parse", () => {
    expect(() => eagerFunctions("function (", () => true)).toThrow(/cannot parse the executable/);
  });
});
