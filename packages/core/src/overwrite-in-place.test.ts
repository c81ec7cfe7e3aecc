import { execFileSync } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IN_PLACE_MAX_BYTES, overwriteInPlace } from "./overwrite-in-place.ts";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-in-place-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("overwriteInPlace", () => {
  it("creates a private file holding exactly the text, and no other file", () => {
    const path = join(dir, "usage.json");
    overwriteInPlace(path, '{"a":1}');
    expect(readFileSync(path, "utf8")).toBe('{"a":1}');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["usage.json"]);
  });

  it("pads a shorter text with spaces over the old one, so the file still parses to the new value", () => {
    const path = join(dir, "usage.json");
    overwriteInPlace(path, JSON.stringify({ contextTokens: 123_456, model: "claude-opus-5-5" }));
    overwriteInPlace(path, JSON.stringify({ contextTokens: 7 }));
    const text = readFileSync(path, "utf8");
    expect(text).toBe(`{"contextTokens":7}${" ".repeat(text.length - 19)}`);
    expect(JSON.parse(text)).toEqual({ contextTokens: 7 });
  });

  it("grows the file for a longer text", () => {
    const path = join(dir, "usage.json");
    overwriteInPlace(path, "{}");
    overwriteInPlace(path, '{"contextTokens":123456}');
    expect(readFileSync(path, "utf8")).toBe('{"contextTokens":123456}');
  });

  it("cuts a file someone else made larger than it writes in place", () => {
    const path = join(dir, "usage.json");
    writeFileSync(path, `{}${"x".repeat(IN_PLACE_MAX_BYTES * 2)}`);
    overwriteInPlace(path, '{"a":1}');
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ a: 1 });
    expect(statSync(path).size).toBe(IN_PLACE_MAX_BYTES);
  });

  it("refuses a text larger than one write in place", () => {
    const path = join(dir, "usage.json");
    expect(() => overwriteInPlace(path, "x".repeat(IN_PLACE_MAX_BYTES + 1))).toThrow(expect.objectContaining({ code: "BAD_INPUT" }));
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a symlink at the path, writing nothing through it", () => {
    const victim = join(dir, "victim");
    writeFileSync(victim, "keep me");
    symlinkSync(victim, join(dir, "usage.json"));
    expect(() => overwriteInPlace(join(dir, "usage.json"), "{}")).toThrow(expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringMatching(/it is a symlink/) }));
    expect(readFileSync(victim, "utf8")).toBe("keep me");
  });

  it("refuses a directory or a FIFO at the path without blocking on it", () => {
    mkdirSync(join(dir, "usage.json"));
    expect(() => overwriteInPlace(join(dir, "usage.json"), "{}")).toThrow(expect.objectContaining({ code: "EISDIR" }));
    execFileSync("mkfifo", [join(dir, "fifo")]);
    // No reader on the FIFO: a blocking open for writing would never return.
    expect(() => overwriteInPlace(join(dir, "fifo"), "{}")).toThrow(expect.objectContaining({ code: "ENXIO" }));
    expect(() => overwriteInPlace("/dev/null", "{}")).toThrow(expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringMatching(/not a regular file/) }));
  });

  it("without create, rewrites an existing file and leaves a missing one missing (ENOENT)", () => {
    const path = join(dir, "usage.json");
    expect(() => overwriteInPlace(path, "{}", { create: false })).toThrow(expect.objectContaining({ code: "ENOENT" }));
    expect(readdirSync(dir)).toEqual([]);
    writeFileSync(path, '{"old":true}');
    overwriteInPlace(path, '{"new":1}', { create: false });
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ new: 1 });
  });

  // Only root can hand a file to another uid.
  it.skipIf(process.getuid?.() !== 0)("refuses a file another user owns, writing nothing to it", () => {
    const path = join(dir, "usage.json");
    writeFileSync(path, "theirs");
    chownSync(path, 4242, 4242);
    expect(() => overwriteInPlace(path, "{}")).toThrow(expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringMatching(/owned by uid 4242/) }));
    expect(readFileSync(path, "utf8")).toBe("theirs");
  });

  it("throws when the directory is missing", () => {
    expect(() => overwriteInPlace(join(dir, "missing/usage.json"), "{}")).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });
});
