// PostCompact (manual and auto): counts the compaction, marks it for recovery, files its summary, re-arms levels
// and forgets the usage reading taken before it.
import type { HookDefinition } from "@carryover/core";
import type { keys } from "./config.ts";

export const hook: HookDefinition<"PostCompact", typeof keys> = {
  name: "post-compact",
  config: () => import("./config.ts"),
  events: ["PostCompact"],

  async run({ input, nowMs, config, session }) {
    const { appendLedger, forgetReading, markCompacted, rearmLevels, recordCompaction, summaryOf } = await import(
      "./deps.ts"
    );
    // First: from here on, a reading by a status line started before this process is about the old context.
    recordCompaction(session, input.prompt_id, nowMs);
    markCompacted(session, { trigger: input.trigger, promptId: input.prompt_id }, nowMs);
    const summary = summaryOf(input.compact_summary ?? "");
    if (summary) {
      const entry = { atMs: nowMs, trigger: input.trigger, promptId: input.prompt_id, summary };
      appendLedger(session, entry, config.hook.ledgerMaxEntries);
    }
    rearmLevels(session);
    forgetReading(session);
    // Silent: after a manual /compact stdout reaches the model as a report line, and
    // hookSpecificOutput is invalid for PostCompact (2.1.332).
    return null;
  },
};
