import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { type BundleCeilings, bundleSizeProblems, shippedExecutables } from "./bundle-size.ts";

const ROOT = join(import.meta.dirname, "..");
const CEILINGS = JSON.parse(readFileSync(join(ROOT, "bundle-size.json"), "utf8")) as BundleCeilings;

describe("bundle size", () => {
  test("every shipped executable is built and within its ceiling", () => {
    const executables = shippedExecutables(ROOT);
    expect(executables.map((executable) => executable.name)).toContain("carryover-post-compact");
    expect(bundleSizeProblems(executables, CEILINGS)).toEqual([]);
  });
});
