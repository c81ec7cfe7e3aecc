import { existsSync, rmSync } from "node:fs";
import { autoMemoryDir, mechanicalSnapshotPath, sessionDirPath } from "../../packages/core/src/index.ts";
import type { HookCases } from "./types.ts";

export const cases: HookCases = {
  hook: "pre-compact",
  cases: [
    {
      name: "active",
      what: "PreCompact(auto), 5 MB transcript: scans it, writes the snapshot and journal, prints the summary steering (no fast path: runs once per compaction)",
      payload: (context) => context.captured("pre-compact.auto"),
      setup: (context) => {
        rmSync(sessionDirPath(context.env, context.sessionId), { recursive: true, force: true });
        rmSync(autoMemoryDir(context.env, context.projectDir), { recursive: true, force: true });
      },
      expect: "carryover pre-compact: instructions for this summary",
      verify: (context) => (existsSync(mechanicalSnapshotPath(context.env, context.sessionId)) ? null : "no mechanical snapshot was written"),
    },
  ],
};
