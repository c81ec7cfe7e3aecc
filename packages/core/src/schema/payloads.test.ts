import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type HookEvent, parseHookInput } from "./payloads.ts";

const PAYLOADS = join(import.meta.dirname, "../../../../test-fixtures/payloads");
const captured = (file: string) => JSON.parse(readFileSync(join(PAYLOADS, file), "utf8")) as Record<string, unknown>;

// Captured file name prefix → the event and schema it is parsed with. `post-tool-use.` excludes the failure payloads.
const EVENTS = [
  { prefix: "session-start.", event: "SessionStart" },
  { prefix: "user-prompt-submit", event: "UserPromptSubmit" },
  { prefix: "pre-compact.", event: "PreCompact" },
  { prefix: "post-compact.", event: "PostCompact" },
  { prefix: "post-tool-use.", event: "PostToolUse" },
] as const;

const capturedCases = EVENTS.flatMap(({ prefix, event }) =>
  readdirSync(PAYLOADS)
    .filter((file) => file.startsWith(prefix) && file.endsWith(".json"))
    .map((file) => ({ file, event })),
);

describe("captured Claude Code 2.1.332 payloads", () => {
  it("cover every event core has a schema for", () => {
    expect(new Set(capturedCases.map(({ event }) => event))).toEqual(new Set(EVENTS.map(({ event }) => event)));
    expect(capturedCases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(capturedCases)("$file parses as $event, every field kept", ({ file, event }) => {
    const payload = captured(file);
    expect(parseHookInput(event, payload)).toEqual(payload);
  });
});

function problemOf(event: HookEvent, payload: unknown): string {
  try {
    parseHookInput(event, payload);
  } catch (error) {
    expect(error).toMatchObject({ code: "BAD_INPUT" });
    return (error as Error).message;
  }
  throw new Error("parsed");
}

describe("rejections", () => {
  const startup = captured("session-start.startup.print-mode.json");

  it.each(["../x", "/abs", "a\0b", "x".repeat(10 * 1024), "", "a/../../b"])(
    "an unsafe session id %# is refused in one line",
    (id) => {
      expect(problemOf("SessionStart", { ...startup, session_id: id })).toBe(
        "SessionStart payload: session_id invalid",
      );
    },
  );

  it("names missing and invalid fields, at most three", () => {
    expect(problemOf("PreCompact", { ...captured("pre-compact.auto.json"), trigger: "sometimes" })).toBe(
      "PreCompact payload: trigger invalid",
    );
    expect(problemOf("PostCompact", { hook_event_name: "PostCompact" })).toBe(
      "PostCompact payload: session_id missing, cwd missing, trigger missing",
    );
    expect(problemOf("SessionStart", { ...startup, hook_event_name: "Stop" })).toBe(
      "SessionStart payload: hook_event_name invalid",
    );
    expect(problemOf("PostToolUse", { ...captured("post-tool-use.write.json"), cwd: "" })).toBe(
      "PostToolUse payload: cwd invalid",
    );
  });

  it("refuses a payload that is not an object", () => {
    expect(problemOf("PostCompact", null)).toBe("PostCompact payload: (payload) invalid");
    expect(problemOf("PostCompact", [])).toBe("PostCompact payload: (payload) invalid");
  });
});

describe("tolerance", () => {
  it("keeps fields a later Claude Code adds", () => {
    const payload = { ...captured("user-prompt-submit.json"), effort: { level: "high" }, future_field: [1, 2] };
    expect(parseHookInput("UserPromptSubmit", payload)).toMatchObject({
      future_field: [1, 2],
      effort: { level: "high" },
    });
  });

  it("accepts the optional fields absent or null", () => {
    const { transcript_path: _, ...noTranscript } = captured("pre-compact.manual.no-args.json");
    expect(parseHookInput("PreCompact", noTranscript)).toMatchObject({ custom_instructions: null });
    expect(
      parseHookInput("PostCompact", { ...captured("post-compact.auto.json"), compact_summary: null }).compact_summary,
    ).toBeNull();
  });
});
