import { describe, expect, it } from "vitest";
import { contextOutput, MAX_CONTEXT_CHARS, mergeOutputs } from "./output.ts";

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
