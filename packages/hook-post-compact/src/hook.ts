// PostCompact (manual and auto): marks the compaction for recovery, files its summary, re-arms levels and
// forgets the usage reading taken before it.
import type { HookDefinition } from "@carryover/core";
import type { keys } from "./config.ts";

export const hook: HookDefinition<"PostCompact", typeof keys> = {
  name: "post-compact",
  config: () => import("./config.ts"),
  events: ["PostCompact"],

  async run({ input, nowMs, config, session }) {
    const { appendLedger, forgetReading, markCompacted, rearmLevels, summaryOf } = await import("./deps.ts");
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
