import { describe, expect, it } from "vitest";
import { capText, contextOutput, MAX_CONTEXT_CHARS, mergeOutputs } from "./output.ts";

describe("capText", () => {
  it("leaves short text alone", () => {
    expect(capText("short", 10)).toBe("short");
    expect(capText("x".repeat(10), 10)).toBe("x".repeat(10));
  });

  it("cuts long text to the limit, visibly", () => {
    const cut = capText("y".repeat(20_000), MAX_CONTEXT_CHARS);
    expect(cut).toHaveLength(MAX_CONTEXT_CHARS);
    expect(cut).toMatch(/^y+\n\[… cut by carryover to stay within the hook output limit\]$/);
  });
});

describe("contextOutput", () => {
  it("puts context for the agent in hookSpecificOutput and the user's message in systemMessage", () => {
    expect(contextOutput("SessionStart", { additionalContext: "ctx", systemMessage: "msg" })).toEqual({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx" },
      systemMessage: "msg",
    });
    expect(contextOutput("UserPromptSubmit", { systemMessage: "msg" })).toEqual({ systemMessage: "msg" });
  });

  it("is null when there is nothing to say", () => {
    expect(contextOutput("PostToolUse", {})).toBeNull();
    expect(contextOutput("PostToolUse", { additionalContext: "", systemMessage: "" })).toBeNull();
  });

  it("caps both at Claude Code's 10,000 characters", () => {
    const output = contextOutput("UserPromptSubmit", { additionalContext: "a".repeat(12_000), systemMessage: "b".repeat(12_000) });
    expect(output?.hookSpecificOutput?.additionalContext).toHaveLength(MAX_CONTEXT_CHARS);
    expect(output?.systemMessage).toHaveLength(MAX_CONTEXT_CHARS);
  });
});

describe("mergeOutputs", () => {
  it("joins contexts with a blank line and messages with a newline, skipping text and empty results", () => {
    const merged = mergeOutputs("UserPromptSubmit", [
      { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "first" }, systemMessage: "one" },
      null,
      "plain text is not merged",
      undefined,
      { systemMessage: "two" },
      { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "second" } },
    ]);
    expect(merged).toEqual({
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "first\n\nsecond" },
      systemMessage: "one\ntwo",
    });
  });

  it("is null when no output says anything", () => {
    expect(mergeOutputs("SessionStart", [null, undefined, {}])).toBeNull();
  });
});
