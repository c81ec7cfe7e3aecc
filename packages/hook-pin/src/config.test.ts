import { join } from "node:path";
import { expect, it } from "vitest";
import { configProblems } from "../../core/test/config-keys.ts";
import { keys } from "./config.ts";

it("every key's default passes its own check, and the README's key table lists each key with its default", () => {
  expect(configProblems("pin", keys, join(import.meta.dirname, "../README.md"))).toEqual([]);
});
