import { rmSync } from "node:fs";
import { COMPACTED_MARKER, hasMarker, markCompacted, removeMarker, sessionDirPath } from "../../packages/core/src/index.ts";
import type { CaseContext, HookCases } from "./types.ts";

const HEADING = "carryover recovery";

function prompt(context: CaseContext) {
  return context.captured("user-prompt-submit");
}

// The session's state as a new compaction leaves it: no delivery, no claim, whatever markers those use.
function freshSession(context: CaseContext) {
  rmSync(sessionDirPath(context.env, context.sessionId), { recursive: true, force: true });
}

function compacted(context: CaseContext) {
  freshSession(context);
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
      setup: freshSession,
      expect: HEADING,
    },
  ],
};
