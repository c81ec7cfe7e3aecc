import { describe, expect, it } from "vitest";
import { contextOutput, MAX_CONTEXT_CHARS } from "./output.ts";

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
    const output = contextOutput("UserPromptSubmit", {
      additionalContext: "a".repeat(12_000),
      systemMessage: "b".repeat(12_000),
    });
    expect(output?.hookSpecificOutput?.additionalContext).toHaveLength(MAX_CONTEXT_CHARS);
    expect(output?.systemMessage).toHaveLength(MAX_CONTEXT_CHARS);
  });
});
