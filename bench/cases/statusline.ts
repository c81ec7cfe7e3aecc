import { rmSync } from "node:fs";
import { hasMarker, levelMarkerName, loadReading, openSession, recordReading } from "../../packages/core/src/index.ts";
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
  rmSync(openSession(context.env, context.sessionId).dir, { recursive: true, force: true });
}

/** The reading the previous response left, as the statusline recorded it (levels synced for it). */
function previousReading(context: CaseContext, contextTokens: number) {
  recordReading(openSession(context.env, context.sessionId), {
    source: "statusline",
    contextTokens,
    modelWindowTokens: 1_000_000,
    autoCompactTokens: 967_000,
    model: "claude-opus-5-5",
    atMs: Date.now() - 60_000,
    syncedLevels: [60, 85],
  });
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
        const recorded = loadReading(openSession(context.env, context.sessionId));
        if (recorded) recordReading(openSession(context.env, context.sessionId), { ...recorded, atMs: Date.now() });
      },
      expect: "ctx 51%",
    },
    {
      name: "active",
      everyPrompt: true,
      what:
        "after a response that changed the reading (490k → 500k of 967k): records it; the levels stay where they " +
        "were",
      payload: (context) => statusLinePayload(context, 500_000),
      setup: (context) => previousReading(context, 490_000),
      expect: "ctx 51%",
      verify: (context) =>
        loadReading(openSession(context.env, context.sessionId))?.contextTokens === 500_000
          ? null
          : "the reading was not recorded",
    },
    {
      name: "crossing 60%",
      what: "after the response that crossed 60% (560k → 630k): records the reading, raises level-60",
      payload: (context) => statusLinePayload(context, 630_000),
      setup: (context) => {
        freshSession(context);
        previousReading(context, 560_000);
      },
      expect: "ctx 65%",
      verify: (context) =>
        hasMarker(openSession(context.env, context.sessionId), levelMarkerName(60)) ? null : "level-60 was not raised",
    },
    {
      name: "first reading",
      what: "the session's first reading (500k of 967k): makes its private dir, records the reading, syncs the levels",
      payload: (context) => statusLinePayload(context, 500_000),
      setup: freshSession,
      expect: "ctx 51%",
      verify: (context) =>
        loadReading(openSession(context.env, context.sessionId))?.contextTokens === 500_000
          ? null
          : "the reading was not recorded",
    },
  ],
};
