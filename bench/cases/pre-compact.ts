import { existsSync, rmSync } from "node:fs";
import { autoMemoryDir, mechanicalSnapshotPath, openSession } from "../../packages/core/src/index.ts";
import type { CaseContext, HookCase, HookCases } from "./types.ts";

const compaction: Omit<HookCase, "name" | "what"> = {
  payload: (context) => context.captured("pre-compact.auto"),
  setup: (context: CaseContext) => {
    rmSync(openSession(context.env, context.sessionId).dir, { recursive: true, force: true });
    rmSync(autoMemoryDir(context.env, context.projectDir), { recursive: true, force: true });
  },
  // The steering's opening, printed however many compactions came before.
  expect: 'The summary begins with a section "Historical summaries"',
  verify: (context) =>
    existsSync(mechanicalSnapshotPath(openSession(context.env, context.sessionId)))
      ? null
      : "no mechanical snapshot was written",
};

export const cases: HookCases = {
  hook: "pre-compact",
  cases: [
    {
      ...compaction,
      name: "active",
      what:
        "PreCompact(auto), 5 MB transcript: scans it, writes the snapshot and journal, prints the summary " +
        "steering (no fast path: runs once per compaction)",
    },
    {
      ...compaction,
      name: "active, 100 MB transcript",
      what: "the same after a long session: the scan reads 100 MB",
      transcriptBytes: 100e6,
    },
  ],
};
