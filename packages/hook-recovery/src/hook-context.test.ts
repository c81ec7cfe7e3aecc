import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hookContextSinceLastBoundary } from "./hook-context.ts";

// Line shapes as Claude Code 2.1.332 writes them (trimmed to the keys read).
const boundary = JSON.stringify({
  parentUuid: null,
  type: "system",
  subtype: "compact_boundary",
  content: "Conversation compacted",
});
const context = (hookEvent: string, text: string) =>
  JSON.stringify({
    parentUuid: "a",
    attachment: { type: "hook_additional_context", content: [text], hookName: hookEvent, hookEvent },
    type: "attachment",
  });
const success = (text: string) =>
  JSON.stringify({
    attachment: {
      type: "hook_success",
      hookEvent: "SessionStart",
      stdout: JSON.stringify({ hookSpecificOutput: { additionalContext: text } }),
    },
    type: "attachment",
  });
const user = JSON.stringify({ type: "user", message: { role: "user", content: "hello" } });

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-hook-context-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function transcript(...lines: string[]): string {
  const path = join(dir, "t.jsonl");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

const query = { hookEvent: "SessionStart", needle: "RECOVERY" };

describe("hookContextSinceLastBoundary", () => {
  it("finds the context recorded after the last boundary", async () => {
    expect(
      await hookContextSinceLastBoundary(
        transcript(user, boundary, context("SessionStart", "x RECOVERY y"), user),
        query,
      ),
    ).toBe("found");
  });

  // The context only before the last boundary, from another event, or only in a hook_success echo.
  it("is absent when no context of the event follows the last boundary", async () => {
    expect(
      await hookContextSinceLastBoundary(
        transcript(boundary, context("SessionStart", "RECOVERY"), boundary, user),
        query,
      ),
    ).toBe("absent");
    expect(
      await hookContextSinceLastBoundary(transcript(boundary, context("UserPromptSubmit", "RECOVERY")), query),
    ).toBe("absent");
    expect(await hookContextSinceLastBoundary(transcript(boundary, success("RECOVERY")), query)).toBe("absent");
  });

  it("is unknown without a boundary in reach or without a transcript", async () => {
    expect(await hookContextSinceLastBoundary(transcript(user, context("SessionStart", "RECOVERY")), query)).toBe(
      "unknown",
    );
    expect(await hookContextSinceLastBoundary(join(dir, "missing.jsonl"), query)).toBe("unknown");
    const long = transcript(boundary, "x".repeat(4096), context("SessionStart", "RECOVERY"));
    expect(await hookContextSinceLastBoundary(long, { ...query, maxBytes: 1024 })).toBe("unknown");
  });
});

// None of the nine real transcripts (Claude Code 1.0.57 to 2.1.212) holds a compact_boundary line (read by hand:
// templar's one compaction is an isCompactSummary line of a version that wrote no boundary), though 4alvit's holds
// UserPromptSubmit hook contexts: with no boundary in reach, nothing can be said of what came after one.
const REAL = join(import.meta.dirname, "../../../test-fixtures/real-transcripts");
const realTranscripts = readdirSync(REAL).filter((name) => name.endsWith(".jsonl"));

describe("on the real transcripts", () => {
  it("reads all nine", () => expect(realTranscripts).toHaveLength(9));

  it.each(realTranscripts)("%s: unknown, for any event", async (name) => {
    for (const hookEvent of ["SessionStart", "UserPromptSubmit"]) {
      const record = await hookContextSinceLastBoundary(join(REAL, name), { hookEvent, needle: "CAVEMAN MODE" });
      expect(record).toBe("unknown");
    }
  });
});
