import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assertPrivateDir, ensurePrivateDir } from "./private-dir.ts";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-private-dir-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const unsafe = expect.objectContaining({ code: "UNSAFE_PATH" });

describe("ensurePrivateDir", () => {
  it("creates every segment with mode 0700 and returns the last", () => {
    const base = join(root, "home/.claude");
    expect(ensurePrivateDir(base, "carryover", "log")).toBe(join(base, "carryover/log"));
    expect(statSync(join(base, "carryover")).mode & 0o777).toBe(0o700);
    expect(statSync(join(base, "carryover/log")).mode & 0o777).toBe(0o700);
  });

  it("accepts what it created before, and a directory that is only readable by others", () => {
    ensurePrivateDir(root, "a", "b");
    chmodSync(join(root, "a"), 0o755);
    expect(ensurePrivateDir(root, "a", "b")).toBe(join(root, "a/b"));
  });

  it("refuses a symlinked segment and creates nothing through it", () => {
    const elsewhere = join(root, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(root, "a"));
    expect(() => ensurePrivateDir(root, "a", "b")).toThrow(unsafe);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("refuses a dangling symlink too", () => {
    symlinkSync(join(root, "nowhere"), join(root, "a"));
    expect(() => ensurePrivateDir(root, "a")).toThrow(unsafe);
    expect(readdirSync(root)).toEqual(["a"]);
  });

  it("refuses a directory writable by others or by its group", () => {
    mkdirSync(join(root, "open"));
    chmodSync(join(root, "open"), 0o777);
    expect(() => ensurePrivateDir(root, "open", "x")).toThrow(/refusing .*open: writable by others \(mode 777\)/);
    mkdirSync(join(root, "group"));
    chmodSync(join(root, "group"), 0o770);
    expect(() => ensurePrivateDir(root, "group")).toThrow(unsafe);
    expect(readdirSync(join(root, "open"))).toEqual([]);
  });

  it("refuses a file where a directory should be", () => {
    writeFileSync(join(root, "a"), "");
    expect(() => ensurePrivateDir(root, "a", "b")).toThrow(/refusing .*a: not a directory/);
  });

  it("trusts the base itself, even when it is a symlink (a dotfiles-managed ~/.claude)", () => {
    const real = join(root, "real");
    mkdirSync(real);
    symlinkSync(real, join(root, "link"));
    expect(ensurePrivateDir(join(root, "link"), "carryover")).toBe(join(root, "link/carryover"));
    expect(readdirSync(real)).toEqual(["carryover"]);
  });

  it.runIf(process.getuid?.() === 0)("refuses a directory owned by another user", () => {
    mkdirSync(join(root, "theirs"), { mode: 0o700 });
    chownSync(join(root, "theirs"), 4242, 4242);
    expect(() => assertPrivateDir(join(root, "theirs"))).toThrow(/owned by uid 4242, not 0/);
  });
});

describe("assertPrivateDir", () => {
  it("throws for a missing path", () => {
    expect(() => assertPrivateDir(join(root, "missing"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });
});
