import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { autoMemoryDir } from "@carryover/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkMemoryIndex, measureMemoryIndex, memoryIndexWarning } from "./memory-index.ts";

const lines = (count: number, make = (n: number) => `- line ${n}`) => Array.from({ length: count }, (_, i) => make(i + 1)).join("\n");

describe("measureMemoryIndex, as Claude Code 2.1.332 loads MEMORY.md", () => {
  it("loads the first 200 lines and drops the rest, newest last", () => {
    expect(measureMemoryIndex(`${lines(200)}\n`)).toMatchObject({ lines: 200, loadedLines: 200, dropped: [], percent: 100, limitedBy: "lines" });
    const over = measureMemoryIndex(lines(230));
    expect(over.loadedLines).toBe(200);
    expect(over.dropped[0]).toEqual({ line: 201, text: "- line 201" });
    expect(over.dropped).toHaveLength(30);
  });

  it("does not count trailing blank lines", () => {
    expect(measureMemoryIndex(`${lines(200)}\n\n\n`).dropped).toEqual([]);
  });

  it("cuts to the whole lines that fit in 25,000 characters, counted as characters, not bytes", () => {
    // 126 lines of 199 characters + newline: 125 fit exactly (measured: line 126 is the first cut).
    const long = lines(126, (n) => `- ${String(n).padStart(3, "0")} ${"x".repeat(193)}`);
    expect(measureMemoryIndex(long)).toMatchObject({ loadedLines: 125, limitedBy: "chars", dropped: [{ line: 126 }] });
    // 140 lines of 200 UTF-8 bytes but 103 characters: 28 KB, all loaded (measured).
    const accented = lines(140, (n) => `- ${String(n).padStart(3, "0")} ${"é".repeat(97)}`);
    expect(Buffer.byteLength(accented)).toBeGreaterThan(25_000);
    expect(measureMemoryIndex(accented).dropped).toEqual([]);
  });

  it("reports the nearer limit as a percent", () => {
    expect(measureMemoryIndex(lines(170))).toMatchObject({ percent: 85, limitedBy: "lines" });
    expect(measureMemoryIndex("x".repeat(20_000))).toMatchObject({ percent: 80, limitedBy: "chars", lines: 1 });
    expect(measureMemoryIndex("")).toMatchObject({ lines: 0, percent: 0, dropped: [] });
  });
});

describe("checkMemoryIndex", () => {
  let home: string;
  let project: string;
  let memoryDir: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "carryover-memory-"));
    project = join(home, "proj");
    mkdirSync(join(project, ".git"), { recursive: true });
    memoryDir = autoMemoryDir({ HOME: home }, project);
    mkdirSync(memoryDir, { recursive: true });
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("is null without a MEMORY.md, and warns from the headroom on", () => {
    expect(checkMemoryIndex({ HOME: home }, project, 80)).toBeNull();
    writeFileSync(join(memoryDir, "MEMORY.md"), lines(159));
    expect(checkMemoryIndex({ HOME: home }, project, 80)).toMatchObject({ warn: false, lines: 159, path: join(memoryDir, "MEMORY.md") });
    writeFileSync(join(memoryDir, "MEMORY.md"), lines(160));
    expect(checkMemoryIndex({ HOME: home }, join(project, "src"), 80)).toMatchObject({ warn: true });
  });

  it("refuses a symlinked MEMORY.md", () => {
    writeFileSync(join(home, "elsewhere.md"), "x");
    symlinkSync(join(home, "elsewhere.md"), join(memoryDir, "MEMORY.md"));
    expect(() => checkMemoryIndex({ HOME: home }, project, 80)).toThrow(/symlink/);
  });

  it("tells where it stands before the limit, and names the lines lost past it", () => {
    writeFileSync(join(memoryDir, "MEMORY.md"), lines(170));
    const near = memoryIndexWarning(checkMemoryIndex({ HOME: home }, project, 80)!);
    expect(near).toContain("MEMORY.md is at 85% of what Claude Code loads (170 of 200 lines, 1,761 of 25,000 characters)");
    expect(near).toContain("Past line 200, the newest lines stop being loaded");
    expect(near).toContain("topic files");

    writeFileSync(join(memoryDir, "MEMORY.md"), lines(208));
    const over = memoryIndexWarning(checkMemoryIndex({ HOME: home }, project, 80)!);
    expect(over).toContain("lines 201–208 are not loaded into any session");
    expect(over).toContain("  201: - line 201\n");
    expect(over).toContain("  205: - line 205\n  … and 3 more");
    expect(over).not.toContain("- line 200\n");
  });
});
