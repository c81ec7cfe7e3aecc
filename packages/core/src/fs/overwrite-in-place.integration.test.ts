import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IN_PLACE_BYTES, overwriteInPlace } from "./overwrite-in-place.ts";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-in-place-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const page = (text: string) => text + " ".repeat(IN_PLACE_BYTES - Buffer.byteLength(text));

describe("overwriteInPlace", () => {
  it("creates a private file of one page, the text padded with spaces, and no other file", () => {
    const path = join(dir, "usage.json");
    overwriteInPlace(path, '{"a":1}');
    expect(readFileSync(path, "utf8")).toBe(page('{"a":1}'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["usage.json"]);
  });

  it("writes a shorter text over a longer one, so the file parses to the new value", () => {
    const path = join(dir, "usage.json");
    overwriteInPlace(path, JSON.stringify({ contextTokens: 123_456, model: "claude-opus-5-5" }));
    overwriteInPlace(path, JSON.stringify({ contextTokens: 7 }));
    expect(readFileSync(path, "utf8")).toBe(page('{"contextTokens":7}'));
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ contextTokens: 7 });
  });

  it("counts padding in bytes, not characters", () => {
    const path = join(dir, "usage.json");
    overwriteInPlace(path, '{"model":"Opus ✓"}');
    expect(statSync(path).size).toBe(IN_PLACE_BYTES);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ model: "Opus ✓" });
  });

  it("grows a shorter file written some other way to the page", () => {
    const path = join(dir, "usage.json");
    writeFileSync(path, "{}");
    overwriteInPlace(path, '{"contextTokens":123456}', { create: false });
    expect(readFileSync(path, "utf8")).toBe(page('{"contextTokens":123456}'));
  });

  it("cuts a file someone else made larger than it writes in place", () => {
    const path = join(dir, "usage.json");
    writeFileSync(path, `{}${"x".repeat(IN_PLACE_BYTES * 2)}`);
    overwriteInPlace(path, '{"a":1}');
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ a: 1 });
    expect(statSync(path).size).toBe(IN_PLACE_BYTES);
  });

  it("refuses a text larger than one write in place", () => {
    const path = join(dir, "usage.json");
    expect(() => overwriteInPlace(path, "x".repeat(IN_PLACE_BYTES + 1))).toThrow(
      expect.objectContaining({ code: "BAD_INPUT" }),
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a symlink at the path, writing nothing through it", () => {
    const victim = join(dir, "victim");
    writeFileSync(victim, "keep me");
    symlinkSync(victim, join(dir, "usage.json"));
    expect(() => overwriteInPlace(join(dir, "usage.json"), "{}")).toThrow(
      expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringMatching(/it is a symlink/) }),
    );
    expect(readFileSync(victim, "utf8")).toBe("keep me");
  });

  it("refuses a directory or a FIFO at the path without blocking on it", () => {
    mkdirSync(join(dir, "usage.json"));
    expect(() => overwriteInPlace(join(dir, "usage.json"), "{}")).toThrow(expect.objectContaining({ code: "EISDIR" }));
    execFileSync("mkfifo", [join(dir, "fifo")]);
    // No reader on the FIFO: a blocking open for writing would never return.
    expect(() => overwriteInPlace(join(dir, "fifo"), "{}")).toThrow(expect.objectContaining({ code: "ENXIO" }));
  });

  it("without create, rewrites an existing file and leaves a missing one missing (ENOENT)", () => {
    const path = join(dir, "usage.json");
    expect(() => overwriteInPlace(path, "{}", { create: false })).toThrow(expect.objectContaining({ code: "ENOENT" }));
    expect(readdirSync(dir)).toEqual([]);
    writeFileSync(path, '{"old":true}');
    overwriteInPlace(path, '{"new":1}', { create: false });
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ new: 1 });
  });

  it("throws when the directory is missing", () => {
    expect(() => overwriteInPlace(join(dir, "missing/usage.json"), "{}")).toThrow(
      expect.objectContaining({ code: "ENOENT" }),
    );
  });
});
