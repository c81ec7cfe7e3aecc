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

  test("an executable over its ceiling, or over the target without one, or missing, is named with what to do", () => {
    const problems = bundleSizeProblems(
      [
        { name: "carryover-a", packageName: "@carryover/hook-a", path: "/x/a.cjs", bytes: 40_001 },
        { name: "carryover-b", packageName: "@carryover/hook-b", path: "/x/b.cjs", bytes: 30_001 },
        { name: "carryover-c", packageName: "@carryover/hook-c", path: "/x/c.cjs", bytes: null },
        { name: "carryover-d", packageName: "@carryover/hook-d", path: "/x/d.cjs", bytes: 39_000 },
      ],
      { targetBytes: 30_000, ceilings: { "carryover-a": 40_000, "carryover-d": 40_000 } },
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^carryover-a .* 40001 bytes, over its ceiling of 40000 by 1\. /);
    expect(problems[0]).toMatch(/raise its ceiling in bundle-size\.json in the commit that grows the bundle/);
    expect(problems[1]).toMatch(/^carryover-b .* over its target of 30000 \(no ceiling in bundle-size\.json\) by 1\./);
    expect(problems[2]).toMatch(/^carryover-c .*\/x\/c\.cjs is missing; build it/);
  });
});
