import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { statusLineFacts } from "./facts.ts";

const PAYLOADS = join(import.meta.dirname, "../../../test-fixtures/payloads");
const captured = (name: string) => JSON.parse(readFileSync(join(PAYLOADS, `${name}.json`), "utf8"));

it("reads the captured status line stdin after a response", () => {
  expect(statusLineFacts(captured("statusline.cache-read"))).toEqual({
    modelId: "claude-opus-5-5",
    modelName: "Opus 5.5",
    windowTokens: 1_000_000,
    contextTokens: 143_456,
  });
});

it("has no context tokens before the first response, and zero right after /compact", () => {
  expect(statusLineFacts(captured("statusline.initial")).contextTokens).toBeNull();
  expect(statusLineFacts(captured("statusline.after-manual-compact")).contextTokens).toBe(0);
});

it("treats fields of the wrong type as absent instead of failing", () => {
  const facts = statusLineFacts({
    session_id: "../x",
    model: "opus",
    cwd: "/p",
    context_window: { context_window_size: "1M", current_usage: { input_tokens: "5", cache_read_input_tokens: 7 } },
  });
  expect(facts).toEqual({
    modelId: undefined,
    modelName: undefined,
    windowTokens: undefined,
    contextTokens: 7,
  });
});
