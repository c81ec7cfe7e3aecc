import { rmSync } from "node:fs";
import {
  announcedMarkerName,
  levelMarkerName,
  openSession,
  recordReading,
  removeMarker,
  writeMarker,
} from "../../packages/core/src/index.ts";
import type { CaseContext, HookCases } from "./types.ts";

const WINDOW_TOKENS = 1_000_000;
const AUTO_COMPACT_TOKENS = 967_000;

function prompt(context: CaseContext) {
  return context.captured("user-prompt-submit");
}

/** What the statusline records after every response in the TUI. */
function reading(context: CaseContext, contextTokens: number) {
  recordReading(openSession(context.env, context.sessionId), {
    source: "statusline",
    contextTokens,
    modelWindowTokens: WINDOW_TOKENS,
    autoCompactTokens: AUTO_COMPACT_TOKENS,
    model: "claude-opus-5-5",
    atMs: Date.now(),
    freshUntilMs: Date.now() + 300_000,
  });
}

export const cases: HookCases = {
  hook: "prep-reminder",
  cases: [
    {
      name: "fast",
      everyPrompt: true,
      what: "UserPromptSubmit, fresh statusline reading at 31%, no level marker (one readdir, one small file)",
      payload: prompt,
      setup: (context) => {
        for (const level of [60, 85]) removeMarker(openSession(context.env, context.sessionId), levelMarkerName(level));
        reading(context, 300_000);
      },
      expect: null,
    },
    {
      name: "active",
      what: "UserPromptSubmit, the statusline raised level-60 at 65%: announces it",
      payload: prompt,
      setup: (context) => {
        reading(context, 630_000);
        removeMarker(openSession(context.env, context.sessionId), announcedMarkerName(60));
        writeMarker(openSession(context.env, context.sessionId), levelMarkerName(60), { percent: 65 }, Date.now());
      },
      expect: "/compact-prep",
    },
    {
      name: "no statusline",
      what:
        "UserPromptSubmit in print mode (no statusline reading): reads the transcript's tail, nothing new to " +
        "announce",
      payload: prompt,
      setup: (context) => {
        rmSync(openSession(context.env, context.sessionId).dir, { recursive: true, force: true });
        for (const level of [60, 85])
          writeMarker(
            openSession(context.env, context.sessionId),
            announcedMarkerName(level),
            { percent: 90 },
            Date.now(),
          );
      },
      expect: null,
    },
  ],
};
