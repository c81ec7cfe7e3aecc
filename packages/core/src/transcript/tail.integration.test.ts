import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTailUsage } from "./tail.ts";

const PAYLOADS = join(import.meta.dirname, "../../../../test-fixtures/payloads");
const MIB = 1024 * 1024;
const capturedLines = (name: string) => readFileSync(join(PAYLOADS, name), "utf8").split("\n").filter(Boolean);
const sampleLines = capturedLines("transcript-sample.auto-compact.jsonl");
// Real 2.1.332 lines to build transcripts from: an assistant response with usage, a user line, a compact_boundary.
const capturedAssistant = JSON.parse(
  sampleLines.find((line) => line.includes('"type":"assistant"') && line.includes('"usage"'))!,
);
const capturedUser = JSON.parse(
  sampleLines.find((line) => line.startsWith('{"parentUuid"') && line.includes('"type":"user"'))!,
);
const capturedBoundary = JSON.parse(sampleLines.find((line) => line.includes('"subtype":"compact_boundary"'))!);

function assistant(
  inputTokens: number,
  overrides: { model?: string; isSidechain?: boolean; timestamp?: string; cacheRead?: number } = {},
): string {
  const line = structuredClone(capturedAssistant);
  line.message.usage.input_tokens = inputTokens;
  line.message.usage.cache_read_input_tokens = overrides.cacheRead ?? 0;
  if (overrides.model) line.message.model = overrides.model;
  if (overrides.isSidechain) line.isSidechain = true;
  line.timestamp = overrides.timestamp ?? "2026-11-29T17:00:00.000Z";
  return JSON.stringify(line);
}

function user(text: string): string {
  const line = structuredClone(capturedUser);
  line.message.content = text;
  return JSON.stringify(line);
}

function boundary(postTokens: number, timestamp = "2026-11-29T18:00:00.000Z"): string {
  return JSON.stringify({
    ...capturedBoundary,
    timestamp,
    compactMetadata: { ...capturedBoundary.compactMetadata, postTokens },
  });
}

let dir: string;
function transcript(lines: string[], tail = "\n"): string {
  const path = join(dir, `t-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, lines.join("\n") + tail);
  return path;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-transcript-tail-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("captured transcripts", () => {
  it("reads the last response of a plain session", () => {
    expect(readTailUsage(join(PAYLOADS, "transcript-sample.jsonl"))).toEqual({
      contextTokens: 100,
      model: "claude-opus-5-5",
      atMs: Date.parse("2026-11-29T17:13:25.412Z"),
      afterCompaction: false,
    });
  });

  it("reads the response after an auto compaction", () => {
    expect(readTailUsage(join(PAYLOADS, "transcript-sample.auto-compact.jsonl"))).toMatchObject({
      contextTokens: 100,
      afterCompaction: false,
    });
  });

  it("reads the boundary's postTokens when the compaction is the newest fact", () => {
    const untilBoundary = sampleLines.slice(
      0,
      sampleLines.findIndex((line) => line.includes("msg_mock_5")),
    );
    expect(readTailUsage(transcript(untilBoundary))).toEqual({
      contextTokens: 2_616,
      atMs: Date.parse("2026-11-29T17:14:24.845Z"),
      afterCompaction: true,
    });
  });

  it("reads the 70,000-token response that triggered the compaction, before the boundary was written", () => {
    const beforeBoundary = sampleLines.slice(
      0,
      sampleLines.findIndex((line) => line.includes('"compact_boundary"')),
    );
    expect(readTailUsage(transcript(beforeBoundary))).toMatchObject({ contextTokens: 70_000, afterCompaction: false });
  });
});

describe("generated transcripts", () => {
  it("adds input, cache creation and cache read tokens", () => {
    expect(readTailUsage(transcript([assistant(1_000, { cacheRead: 500 })]))?.contextTokens).toBe(1_500);
  });

  it("prefers a compact_boundary newer than the last usage", () => {
    const path = transcript([assistant(900_000), user("go on"), boundary(12_345), user("next")]);
    expect(readTailUsage(path)).toMatchObject({ contextTokens: 12_345, afterCompaction: true });
  });

  it("skips sidechain and <synthetic> responses", () => {
    const path = transcript([
      assistant(40_000, { timestamp: "2026-11-29T17:00:01.000Z" }),
      assistant(999, { isSidechain: true }),
      assistant(0, { model: "<synthetic>" }),
    ]);
    expect(readTailUsage(path)).toMatchObject({ contextTokens: 40_000, atMs: Date.parse("2026-11-29T17:00:01.000Z") });
  });

  it("skips a torn last line", () => {
    const torn = assistant(77_777).slice(0, 300);
    expect(readTailUsage(transcript([assistant(50_000), torn], ""))?.contextTokens).toBe(50_000);
  });

  it("finds usage that sits far before the end, past the first 64 KiB read", () => {
    const filler = Array.from({ length: 300 }, (_, i) => user(`tool output ${i} ${"x".repeat(10_000)}`));
    expect(readTailUsage(transcript([assistant(1), assistant(123_456), ...filler]))?.contextTokens).toBe(123_456);
  });

  it("reads a response line cut in half by the first read whole on the next", () => {
    const long = JSON.parse(assistant(222_222));
    long.message.content[0].text = "y".repeat(100 * 1024);
    const path = transcript([assistant(111_111), JSON.stringify(long), user("short tail")]);
    expect(readTailUsage(path)?.contextTokens).toBe(222_222);
  });

  it("reads no more than maxBytes of a huge transcript", () => {
    const path = join(dir, "huge.jsonl");
    const fd = openSync(path, "w");
    writeSync(fd, `${assistant(300_000)}\n`);
    const block = `${Array.from({ length: 64 }, (_, i) => user(`chunk ${i} ${"z".repeat(16_000)}`)).join("\n")}\n`;
    for (let written = 0; written < 12 * MIB; written += block.length) writeSync(fd, block);
    closeSync(fd);
    expect(readTailUsage(path)).toBeNull();
    expect(readTailUsage(path, 16 * MIB)?.contextTokens).toBe(300_000);
  });

  it("is null for a missing or empty file, or one without usage", () => {
    expect(readTailUsage(join(dir, "missing.jsonl"))).toBeNull();
    expect(readTailUsage(transcript([], ""))).toBeNull();
    expect(readTailUsage(transcript([user("hello")]))).toBeNull();
  });

  it("is null for a FIFO nobody writes (opening it would block the process), a device and a directory", () => {
    const fifo = join(dir, "fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    for (const path of [fifo, "/dev/zero", dir]) expect(readTailUsage(path)).toBeNull();
  });
});
