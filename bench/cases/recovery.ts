import {
  hasMarker,
  markCompacted,
  RECOVERY_DELIVERED_MARKER,
  removeMarker,
  COMPACTED_MARKER,
} from "../../packages/core/src/index.ts";
import type { CaseContext, HookCases } from "./types.ts";

const HEADING = "carryover recovery";

function prompt(context: CaseContext) {
  return context.captured("user-prompt-submit");
}

function compacted(context: CaseContext) {
  removeMarker(context.env, context.sessionId, RECOVERY_DELIVERED_MARKER);
  markCompacted(context.env, context.sessionId, { trigger: "auto", promptId: "bench-compaction" }, Date.now());
}

export const cases: HookCases = {
  hook: "recovery",
  cases: [
    {
      name: "fast",
      everyPrompt: true,
      what: "UserPromptSubmit, no compaction pending (one stat)",
      payload: prompt,
      setup: (context) => {
        removeMarker(context.env, context.sessionId, COMPACTED_MARKER);
      },
      expect: null,
    },
    {
      name: "active",
      what: "UserPromptSubmit, first prompt after a compaction: scans the 5 MB transcript, delivers the recovery context",
      payload: prompt,
      setup: compacted,
      expect: HEADING,
      verify: (context) => (hasMarker(context.env, context.sessionId, COMPACTED_MARKER) ? "the compaction marker was not taken" : null),
    },
    {
      name: "active, 100 MB transcript",
      what: "the same after a long session: the scan reads 100 MB",
      payload: prompt,
      setup: compacted,
      transcriptBytes: 100e6,
      expect: HEADING,
    },
    {
      name: "SessionStart(compact)",
      what: "SessionStart(compact): scans the transcript, delivers the recovery context",
      payload: (context) => context.captured("session-start.compact"),
      setup: (context) => removeMarker(context.env, context.sessionId, RECOVERY_DELIVERED_MARKER),
      expect: HEADING,
    },
  ],
};
