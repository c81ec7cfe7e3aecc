import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { unifiedDiff } from "./_unified-diff.ts";

/** `diff -u`'s hunks for the same texts: the reference layout. */
function systemHunks(before: string, after: string): string {
  const dir = mkdtempSync(join(tmpdir(), "carryover-diff-"));
  try {
    writeFileSync(join(dir, "a"), before);
    writeFileSync(join(dir, "b"), after);
    const result = spawnSync("diff", ["-u", join(dir, "a"), join(dir, "b")], { encoding: "utf8" });
    return result.stdout.split("\n").slice(2).join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ours = (before: string, after: string) => unifiedDiff(before, after, "/x").split("\n").slice(2).join("\n");
const lines = (count: number, prefix = "line") =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}\n`).join("");

it.each([
  ["one line changed in the middle", lines(20), lines(20).replace("line 10\n", "LINE TEN\n")],
  ["lines added at the end", lines(5), `${lines(5)}extra 1\nextra 2\n`],
  ["lines removed at the start", lines(9), lines(9).split("\n").slice(3).join("\n")],
  [
    "two changes far apart make two hunks",
    lines(30),
    lines(30).replace("line 2\n", "two\n").replace("line 28\n", "twenty-eight\n"),
  ],
  [
    "two changes close together make one hunk",
    lines(30),
    lines(30).replace("line 10\n", "ten\n").replace("line 15\n", "fifteen\n"),
  ],
  ["from empty", "", lines(3)],
  ["missing final newline", "a\nb", "a\nc"],
])("matches diff -u: %s", (_, before, after) => {
  expect(ours(before, after)).toBe(systemHunks(before, after));
});

it("names /dev/null for a created or deleted file and is empty when nothing changed", () => {
  expect(unifiedDiff(null, "x\n", "/f")).toBe("--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+x\n");
  expect(unifiedDiff("x\n", null, "/f")).toBe("--- a/f\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n");
  expect(unifiedDiff("same\n", "same\n", "/f")).toBe("");
});
