import { execFileSync } from "node:child_process";
import {
  lstatSync,
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
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bundleTestEntry } from "../../test/bundle.ts";
import { Racer, race } from "../../test/racer.ts";
import { appendLine, readFileNoFollow, writeFileAtomic } from "./atomic.ts";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-atomic-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("writeFileAtomic", () => {
  it("writes the whole content, private by default, leaving no temp file", () => {
    const path = join(dir, "state.json");
    writeFileAtomic(path, '{"a":1}');
    expect(readFileSync(path, "utf8")).toBe('{"a":1}');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it("replaces an existing file and takes bytes and a mode", () => {
    const path = join(dir, "bin");
    writeFileSync(path, "old old old");
    writeFileAtomic(path, new Uint8Array([0x23, 0x21, 0x0a]), 0o755);
    expect(readFileSync(path)).toEqual(Buffer.from("#!\n"));
    expect(statSync(path).mode & 0o777).toBe(0o755);
  });

  it("refuses a symlink at the path, writing nothing through it and leaving no temp file", () => {
    const target = join(dir, "victim");
    writeFileSync(target, "keep me");
    symlinkSync(target, join(dir, "marker.json"));
    expect(() => writeFileAtomic(join(dir, "marker.json"), "new")).toThrow(
      expect.objectContaining({ code: "UNSAFE_PATH" }),
    );
    expect(readFileSync(target, "utf8")).toBe("keep me");
    expect(lstatSync(join(dir, "marker.json")).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["marker.json", "victim"]);
  });

  it("throws when the directory is missing", () => {
    expect(() => writeFileAtomic(join(dir, "missing/file"), "x")).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });

  it("removes its temp file when the rename fails", () => {
    mkdirSync(join(dir, "sub/child"), { recursive: true });
    expect(() => writeFileAtomic(join(dir, "sub"), "x")).toThrow();
    expect(readdirSync(dir)).toEqual(["sub"]);
  });
});

describe("appendLine", () => {
  it("appends one line at a time to a private file", () => {
    const path = join(dir, "log");
    appendLine(path, "one");
    appendLine(path, "two");
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\n");
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("refuses text with a newline, writing nothing", () => {
    const path = join(dir, "log");
    expect(() => appendLine(path, "a\nb")).toThrow(expect.objectContaining({ code: "BAD_INPUT" }));
    expect(readdirSync(dir)).toEqual([]);
  });

  it("does not append through a symlink", () => {
    const target = join(dir, "victim");
    writeFileSync(target, "keep me");
    symlinkSync(target, join(dir, "log"));
    expect(() => appendLine(join(dir, "log"), "x")).toThrow(expect.objectContaining({ code: "ELOOP" }));
    expect(readFileSync(target, "utf8")).toBe("keep me");
  });

  describe("from several processes at once", () => {
    let bundle: string;
    beforeAll(async () => {
      bundle = await bundleTestEntry("race-worker");
    });
    afterAll(() => rmSync(dirname(bundle), { recursive: true, force: true }));

    it("never interleaves inside a line", async () => {
      const path = join(dir, "ledger.jsonl");
      const racers = [1, 2, 3].map(() => new Racer(bundle, "append", dir, "unused", path));
      try {
        const rounds = await race(racers, 3, () => {});
        expect(rounds.flat()).toEqual(Array(9).fill("won"));
      } finally {
        for (const racer of racers) racer.stop();
      }
      const lines = readFileSync(path, "utf8").split("\n");
      expect(lines.pop()).toBe("");
      expect(lines).toHaveLength(3 * 3 * 100);
      const torn = lines.filter((line) => !/^\d+ \d \d+ ([a-z])\1{4095}$/.test(line));
      expect(torn).toEqual([]);
    });
  });
});

describe("readFileNoFollow", () => {
  it("reads a regular file", () => {
    writeFileSync(join(dir, "f"), "content ✓");
    expect(readFileNoFollow(join(dir, "f"))).toBe("content ✓");
  });

  it("is null for a missing file or a missing parent", () => {
    writeFileSync(join(dir, "file"), "");
    expect(readFileNoFollow(join(dir, "missing"))).toBeNull();
    expect(readFileNoFollow(join(dir, "file/below"))).toBeNull();
  });

  it("refuses a symlink with a one-line UNSAFE_PATH error naming it", () => {
    writeFileSync(join(dir, "target"), "secret");
    symlinkSync(join(dir, "target"), join(dir, "link"));
    expect(() => readFileNoFollow(join(dir, "link"))).toThrow(
      expect.objectContaining({ code: "UNSAFE_PATH", message: `refusing ${join(dir, "link")}: it is a symlink` }),
    );
  });

  it("reads a FIFO nobody writes to as empty instead of waiting for a writer", () => {
    execFileSync("mkfifo", [join(dir, "fifo")]);
    expect(readFileNoFollow(join(dir, "fifo"))).toBe("");
  });
});
