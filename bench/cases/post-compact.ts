import { rmSync } from "node:fs";
import { hasPendingCompaction, openSession } from "../../packages/core/src/index.ts";
import type { HookCases } from "./types.ts";

export const cases: HookCases = {
  hook: "post-compact",
  cases: [
    {
      name: "active",
      what:
        "PostCompact(auto): marks the compaction, files the summary in the ledger, re-arms levels (no fast path: " +
        "runs once per compaction)",
      payload: (context) => context.captured("post-compact.auto"),
      setup: (context) => rmSync(openSession(context.env, context.sessionId).dir, { recursive: true, force: true }),
      expect: null,
      verify: (context) =>
        hasPendingCompaction(openSession(context.env, context.sessionId)) ? null : "no compaction marker was left",
    },
  ],
};
