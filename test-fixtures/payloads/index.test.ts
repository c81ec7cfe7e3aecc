import { describe, expect, test } from "vitest";
import { payload, payloadPath, payloadText } from "./index.ts";

describe("payloads", () => {
  test("payload() parses a captured hook input, with or without .json", () => {
    expect(payload("pre-compact.auto")).toMatchObject({ hook_event_name: "PreCompact", trigger: "auto", custom_instructions: null });
    expect(payload("post-compact.manual.json")).toMatchObject({ hook_event_name: "PostCompact", trigger: "manual" });
  });

  test("a .jsonl transcript parses to one value per line", () => {
    const lines = payload<Array<{ type: string; subtype?: string }>>("transcript-sample.auto-compact.jsonl");
    expect(lines.some((line) => line.type === "system" && line.subtype === "compact_boundary")).toBe(true);
  });

  test("payloadPath finds nested files and text files; an unknown name throws", () => {
    expect(payloadPath("tasks-sample/1.json")).toMatch(/payloads\/tasks-sample\/1\.json$/);
    expect(payloadText("compaction-prompt.auto.with-precompact-stdout.txt")).toContain("Your task is to create a detailed summary");
    expect(() => payloadPath("no-such-payload")).toThrow(/no captured payload/);
  });
});
