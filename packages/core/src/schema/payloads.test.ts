import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type HookEvent,
  parseHookInput,
  postCompactInput,
  postToolUseInput,
  preCompactInput,
  sessionStartInput,
  statusLineInput,
  stopInput,
  userPromptSubmitInput,
} from "./payloads.ts";

const PAYLOADS = join(import.meta.dirname, "../../../../test-fixtures/payloads");
const captured = (file: string) => JSON.parse(readFileSync(join(PAYLOADS, file), "utf8")) as Record<string, unknown>;

// Captured file name prefix → the event and schema it is parsed with. `post-tool-use.` excludes the failure payloads.
const EVENTS = [
  { prefix: "session-start.", event: "SessionStart", schema: sessionStartInput },
  { prefix: "user-prompt-submit", event: "UserPromptSubmit", schema: userPromptSubmitInput },
  { prefix: "pre-compact.", event: "PreCompact", schema: preCompactInput },
  { prefix: "post-compact.", event: "PostCompact", schema: postCompactInput },
  { prefix: "stop.", event: "Stop", schema: stopInput },
  { prefix: "post-tool-use.", event: "PostToolUse", schema: postToolUseInput },
  { prefix: "statusline", event: "StatusLine", schema: statusLineInput },
] as const;

const capturedCases = EVENTS.flatMap(({ prefix, event, schema }) =>
  readdirSync(PAYLOADS)
    .filter((file) => file.startsWith(prefix) && file.endsWith(".json"))
    .map((file) => ({ file, event, schema })),
);

describe("captured Claude Code 2.1.332 payloads", () => {
  it("cover every event core has a schema for", () => {
    expect(new Set(capturedCases.map(({ event }) => event))).toEqual(new Set(EVENTS.map(({ event }) => event)));
    expect(capturedCases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(capturedCases)("$file parses as $event, every field kept", ({ file, event, schema }) => {
    const payload = captured(file);
    expect(parseHookInput(event, schema, payload)).toEqual(payload);
  });
});

function problemOf(event: HookEvent, schema: Parameters<typeof parseHookInput>[1], payload: unknown): string {
  try {
    parseHookInput(event, schema, payload);
  } catch (error) {
    expect(error).toMatchObject({ code: "BAD_INPUT" });
    return (error as Error).message;
  }
  throw new Error("parsed");
}

describe("rejections", () => {
  const startup = captured("session-start.startup.print-mode.json");
  const statusline = captured("statusline.json");

  it.each(["../x", "/abs", "a\0b", "x".repeat(10 * 1024), "", "a/../../b"])("an unsafe session id %# is refused in one line", (id) => {
    expect(problemOf("SessionStart", sessionStartInput, { ...startup, session_id: id })).toBe("SessionStart payload: session_id invalid");
    expect(problemOf("StatusLine", statusLineInput, { ...statusline, session_id: id })).toBe("StatusLine payload: session_id invalid");
  });

  it("names missing and invalid fields, at most three", () => {
    expect(problemOf("PreCompact", preCompactInput, { ...captured("pre-compact.auto.json"), trigger: "sometimes" })).toBe(
      "PreCompact payload: trigger invalid",
    );
    expect(problemOf("PostCompact", postCompactInput, { hook_event_name: "PostCompact" })).toBe(
      "PostCompact payload: session_id missing, cwd missing, trigger missing",
    );
    expect(problemOf("SessionStart", sessionStartInput, { ...startup, hook_event_name: "Stop" })).toBe("SessionStart payload: hook_event_name invalid");
    expect(problemOf("Stop", stopInput, { ...captured("stop.json"), cwd: "" })).toBe("Stop payload: cwd invalid");
  });

  it("refuses a payload that is not an object", () => {
    expect(problemOf("Stop", stopInput, null)).toBe("Stop payload: (payload) invalid");
    expect(problemOf("Stop", stopInput, [])).toBe("Stop payload: (payload) invalid");
  });
});

describe("tolerance", () => {
  it("keeps fields a later Claude Code adds", () => {
    const payload = { ...captured("user-prompt-submit.json"), effort: { level: "high" }, future_field: [1, 2] };
    expect(parseHookInput("UserPromptSubmit", userPromptSubmitInput, payload)).toMatchObject({ future_field: [1, 2], effort: { level: "high" } });
    const statusline = { ...captured("statusline.json"), rate_limits: { five_hour: {} }, context_window: { context_window_size: 1_000_000, extra: 1 } };
    expect(parseHookInput("StatusLine", statusLineInput, statusline)).toMatchObject({ rate_limits: { five_hour: {} } });
  });

  it("accepts the optional fields absent or null", () => {
    const { transcript_path: _, ...noTranscript } = captured("pre-compact.manual.no-args.json");
    expect(parseHookInput("PreCompact", preCompactInput, noTranscript)).toMatchObject({ custom_instructions: null });
    expect(parseHookInput("PostCompact", postCompactInput, { ...captured("post-compact.auto.json"), compact_summary: null }).compact_summary).toBeNull();
  });

  it("builds each schema once, on first use", () => {
    expect(sessionStartInput()).toBe(sessionStartInput());
  });
});
