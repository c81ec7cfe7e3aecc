// PostCompact (manual and auto): marks the compaction for recovery, files its summary, re-arms levels and
// forgets the usage reading taken before it.
import {
  appendLedger,
  forgetReading,
  type HookContext,
  type HookDefinition,
  markCompacted,
  postCompactInput,
  rearmLevels,
  summaryOf,
} from "@carryover/core";

export function run({ input, env, nowMs, config }: HookContext<"PostCompact", "post-compact">): null {
  const sessionId = input.session_id;
  markCompacted(env, sessionId, { trigger: input.trigger, promptId: input.prompt_id }, nowMs);
  const summary = summaryOf(input.compact_summary ?? "");
  if (summary) {
    appendLedger(env, sessionId, { atMs: nowMs, trigger: input.trigger, promptId: input.prompt_id, summary }, config.hook.ledgerMaxEntries);
  }
  rearmLevels(env, sessionId);
  forgetReading(env, sessionId);
  // Silent: after a manual /compact stdout reaches the model as a report line, and
  // hookSpecificOutput is invalid for PostCompact (2.1.332).
  return null;
}

export const postCompactHook: HookDefinition<"PostCompact", "post-compact"> = {
  name: "post-compact",
  inputs: { PostCompact: postCompactInput },
  run,
};
