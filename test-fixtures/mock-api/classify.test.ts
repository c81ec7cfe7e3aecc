import { describe, expect, test } from "vitest";
import { payload } from "../payloads/index.ts";
import { classifyMessages } from "./classify.ts";
import { requestText } from "./text.ts";

describe("classifyMessages", () => {
  test.each([
    ["request.compaction.auto", "compaction"],
    ["request.compaction.manual", "compaction"],
    ["request.after-auto-compaction", "main"],
    ["request.after-manual-compaction", "main"],
    ["request.user-prompt-submit-additional-context", "main"],
  ])("classifies the captured %s as %s", (name, kind) => {
    expect(classifyMessages(payload(name).body)).toBe(kind);
  });

  test("a request without tools or with a small max_tokens is a side query", () => {
    const messages = [{ role: "user" as const, content: "Generate a title" }];
    expect(classifyMessages({ messages, max_tokens: 32000 })).toBe("side");
    expect(classifyMessages({ messages, tools: [{ name: "Bash" }], max_tokens: 512 })).toBe("side");
    expect(classifyMessages({ messages, tools: [{ name: "Bash" }], max_tokens: 32000 })).toBe("main");
  });
});

describe("requestText", () => {
  test("includes the system prompt, role:system messages, tool_use input and tool_result content", () => {
    const text = requestText({
      system: [{ type: "text", text: "SYSTEM-PROMPT" }],
      messages: [
        { role: "user", content: "PROMPT" },
        { role: "system", content: "UserPromptSubmit hook additional context: CTX" },
        { role: "assistant", content: [{ type: "tool_use", id: "t", name: "Bash", input: { command: "echo IN" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "text", text: "RESULT" }] }] },
      ],
    });
    for (const part of ["SYSTEM-PROMPT", "PROMPT", "hook additional context: CTX", '"command":"echo IN"', "RESULT"]) {
      expect(text).toContain(part);
    }
  });

  test("flattens a captured post-compaction request, the summary message included", () => {
    const text = requestText(payload("request.after-auto-compaction").body);
    expect(text).toContain("Summary:\nMOCK SUMMARY 4: the user asked for things");
    expect(text).toContain("tool_use Bash");
  });
});
