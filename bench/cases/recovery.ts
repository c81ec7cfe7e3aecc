import { rmSync } from "node:fs";
import {
  COMPACTED_MARKER,
  hasMarker,
  markCompacted,
  openSession,
  RECOVERY_DELIVERED_MARKER,
  removeMarker,
} from "../../packages/core/src/index.ts";
import type { CaseContext, HookCases } from "./types.ts";

const HEADING = "carryover recovery";

function prompt(context: CaseContext) {
  return context.captured("user-prompt-submit");
}

let compactions = 0;

/** A new compaction, as PostCompact marks it: its own prompt id, so earlier deliveries and claims do not count. */
function compacted(context: CaseContext) {
  removeMarker(openSession(context.env, context.sessionId), RECOVERY_DELIVERED_MARKER);
  markCompacted(
    openSession(context.env, context.sessionId),
    { trigger: "auto", promptId: `bench-compaction-${++compactions}` },
    Date.now(),
  );
}

// The payload's prompt id is fixed, and a compaction is recovered once per prompt id: start from no session state.
function freshSession(context: CaseContext) {
  rmSync(openSession(context.env, context.sessionId).dir, { recursive: true, force: true });
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
        removeMarker(openSession(context.env, context.sessionId), COMPACTED_MARKER);
      },
      expect: null,
    },
    {
      name: "active",
      what:
        "UserPromptSubmit, first prompt after a compaction: scans the 5 MB transcript, delivers the recovery " +
        "context",
      payload: prompt,
      setup: compacted,
      expect: HEADING,
      verify: (context) =>
        hasMarker(openSession(context.env, context.sessionId), COMPACTED_MARKER)
          ? "the compaction marker was not taken"
          : null,
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
      what: "SessionStart(compact): scans the 5 MB transcript, delivers the recovery context",
      payload: (context) => context.captured("session-start.compact"),
      setup: freshSession,
      expect: HEADING,
    },
  ],
};
