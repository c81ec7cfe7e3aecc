import { join } from "node:path";
import { expect, it } from "vitest";
import { configProblems } from "../../core/test/config-keys.ts";

it("the README's key table shows the shared keys it names with their defaults", () => {
  expect(configProblems("", {}, join(import.meta.dirname, "../README.md"))).toEqual([]);
});
