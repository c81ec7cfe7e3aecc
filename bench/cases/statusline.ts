import { rmSync } from "node:fs";
import { hasMarker, levelMarkerName, loadReading, recordReading, sessionDirPath } from "../../packages/core/src/index.ts";
import type { CaseContext, HookCases } from "./types.ts";

/** The captured status line stdin after a response, with `inputTokens` in the context. */
export function statusLinePayload(context: CaseContext, inputTokens: number) {
  const payload = context.captured("statusline");
  const window = payload.context_window as Record<string, any>;
  window.total_input_tokens = inputTokens;
  window.current_usage = { ...window.current_usage, input_tokens: inputTokens };
  window.used_percentage = Math.round(inputTokens / 10_000);
  window.remaining_percentage = 100 - window.used_percentage;
  return payload;
}

function freshSession(context: CaseContext) {
  rmSync(sessionDirPath(context.env, context.sessionId), { recursive: true, force: true });
}

export const cases: HookCases = {
  hook: "statusline",
  cases: [
    {
      name: "fast",
      everyPrompt: true,
      what: "re-render, reading unchanged (500k of 967k): renders, writes nothing",
      payload: (context) => statusLinePayload(context, 500_000),
      // The reading the first run recorded, made fresh again so no run has to rewrite it.
      setup: (context) => {
        const recorded = loadReading(context.env, context.sessionId);
        if (recorded) recordReading(context.env, context.sessionId, { ...recorded, atMs: Date.now() });
      },
      expect: "ctx 51%",
    },
    {
      name: "active",
      everyPrompt: true,
      what: "after a response that changed the reading (500k of 967k): records it",
      payload: (context) => statusLinePayload(context, 500_000),
      // No recorded reading: this one differs from it, as after every response that changed the context.
      setup: freshSession,
      expect: "ctx 51%",
    },
    {
      name: "crossing 60%",
      what: "after the response that crossed 60%: records the reading, raises level-60",
      payload: (context) => statusLinePayload(context, 630_000),
      setup: freshSession,
      expect: "ctx 65%",
      verify: (context) => (hasMarker(context.env, context.sessionId, levelMarkerName(60)) ? null : "level-60 was not raised"),
    },
  ],
};
