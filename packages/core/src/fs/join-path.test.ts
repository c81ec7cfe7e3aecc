import { join } from "node:path";
import { expect, it } from "vitest";
import { joinPath } from "./join-path.ts";

const cases: string[][] = [
  ["/home/u", ".claude", "settings.json"],
  ["/home/u/", ".claude"],
  ["/home/u//", ".claude"],
  ["/home/u", "", "x"],
  [""],
  ["/"],
  ["/", "x"],
  ["/a", "/b"],
  ["/a/./b", "c"],
  ["/a/../b", "c"],
  ["/a/..", "c"],
  ["/a/.", "c"],
  ["./a", "b"],
  ["../a", "b"],
  ["a", "b/"],
  ["a/", "b/", "c"],
  ["/a", ".."],
  ["/a", "."],
  ["/a", "..b", ".c", "...", "c."],
  ["/p/.claude", "carryover", "config.json"],
];

it("gives what path.join gives", () => {
  for (const parts of cases) expect([parts, joinPath(...parts)]).toEqual([parts, join(...parts)]);
});
