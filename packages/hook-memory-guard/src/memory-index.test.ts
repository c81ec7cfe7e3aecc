import { describe, expect, it } from "vitest";
import { measureMemoryIndex } from "./memory-index.ts";

const lines = (count: number, make = (n: number) => `- line ${n}`) =>
  Array.from({ length: count }, (_, i) => make(i + 1)).join("\n");

describe("measureMemoryIndex, as Claude Code 2.1.332 loads MEMORY.md", () => {
  it("loads the first 200 lines and drops the rest, newest last", () => {
    expect(measureMemoryIndex(`${lines(200)}\n`)).toMatchObject({
      lines: 200,
      loadedLines: 200,
      dropped: [],
      percent: 100,
      limitedBy: "lines",
    });
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
