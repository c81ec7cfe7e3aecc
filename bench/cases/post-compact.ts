import { rmSync } from "node:fs";
import { hasPendingCompaction, sessionDirPath } from "../../packages/core/src/index.ts";
import type { HookCases } from "./types.ts";

export const cases: HookCases = {
  hook: "post-compact",
  cases: [
    {
      name: "active",
      what: "PostCompact(auto): marks the compaction, files the summary in the ledger, re-arms levels (no fast path: runs once per compaction)",
      payload: (context) => context.captured("post-compact.auto"),
      setup: (context) => rmSync(sessionDirPath(context.env, context.sessionId), { recursive: true, force: true }),
      expect: null,
      verify: (context) => (hasPendingCompaction(context.env, context.sessionId) ? null : "no compaction marker was left"),
    },
  ],
};
