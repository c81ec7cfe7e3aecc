import { describe, expect, test } from "vitest";
import { payload } from "../payloads/index.ts";
import { latestPrompt, MockScriptError, parseMockScript } from "./script.ts";
import type { RequestMessage } from "./types.ts";

describe("parseMockScript", () => {
  test("reads the JSON array after the marker, brackets inside strings included", () => {
    const text = 'do it MOCKSCRIPT:[{"tool":"Bash","input":{"command":"echo ]} [x"}},{"text":"done"}] trailing words';
    expect(parseMockScript(text)).toEqual([{ tool: "Bash", input: { command: "echo ]} [x" } }, { text: "done" }]);
  });

  test("allows whitespace and newlines between the marker and the array", () => {
    expect(parseMockScript('MOCKSCRIPT:\n  [\n {"text":"a"}\n]')).toEqual([{ text: "a" }]);
  });

  test("returns undefined without a marker", () => {
    expect(parseMockScript("just a prompt [1,2]")).toBeUndefined();
  });

  test.each([
    ["unclosed", 'MOCKSCRIPT:[{"text":"a"}'],
    ["invalid JSON", "MOCKSCRIPT:[{text:'a'}]"],
    ["not objects", "MOCKSCRIPT:[1,2]"],
  ])("throws MockScriptError when %s", (_name, text) => {
    expect(() => parseMockScript(text)).toThrow(MockScriptError);
  });
});

describe("latestPrompt", () => {
  test("finds the typed prompt of a captured request, past Claude Code's system-reminder blocks", () => {
    const body = payload("request.user-prompt-submit-additional-context");
    expect(latestPrompt(body.body.messages)).toEqual({ index: 0, text: "hello json", assistantTurns: 0 });
  });

  test("skips tool results and counts assistant turns since the prompt", () => {
    const messages: RequestMessage[] = [
      { role: "user", content: "old prompt" },
      { role: "assistant", content: [{ type: "text", text: "old answer" }] },
      { role: "user", content: [{ type: "text", text: "<system-reminder>\nctx\n</system-reminder>" }, { type: "text", text: "new prompt" }] },
      { role: "system", content: "hook context" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "out" }, { type: "text", text: "<system-reminder>x</system-reminder>" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "Bash", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "out" }] },
    ];
    expect(latestPrompt(messages)).toEqual({ index: 2, text: "new prompt", assistantTurns: 2 });
  });

  test("returns undefined when no user message has own text", () => {
    expect(latestPrompt([{ role: "user", content: [{ type: "text", text: "<system-reminder>only</system-reminder>" }] }])).toBeUndefined();
  });
});
