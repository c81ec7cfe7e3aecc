import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { carriedText, carrierFunction } from "./comment-carrier.mjs";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-carrier-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a file holding the carrier prints for the carried text, run by Node. */
function carriedBack(text: string): string {
  const file = join(dir, "carrier.cjs");
  writeFileSync(file, `process.stdout.write(${carriedText("__carried")});\n${carrierFunction("__carried", text)}\n`);
  return spawnSync(process.execPath, [file], { encoding: "utf8" }).stdout;
}

it.each([
  ["code", 'var a=1;function f(){return a*/x*/g.test("*/")}/* a comment */`\nline`'],
  ["text ending in a star", "a*"],
  ["text starting with a slash", "/x*/"],
  ["empty text", ""],
])("gives back %s exactly, every */ in it included", (_, text) => {
  expect(carriedBack(text)).toBe(text);
});

it("refuses text it could not give back, or that would make the file a two-byte source", () => {
  expect(() => carrierFunction("__carried", "a\u0001b")).toThrow(/ASCII without NUL or 0x01.*U\+0001 at 1/);
  expect(() => carrierFunction("__carried", "caf\u00e9")).toThrow(/U\+00e9 at 3/);
});
