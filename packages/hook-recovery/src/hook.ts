// SessionStart (matcher compact) and UserPromptSubmit: right after a compaction, tells the agent where the
// session's state file, plan, task list and changes log are; exactly once, by whichever channel runs first.
import { type CompactionFacts, type HookContext, type HookDefinition, hasPendingCompaction } from "@carryover/core";
import type { keys } from "./config.ts";
import type { FactsQuery } from "./facts.ts";

type RecoveryEvent = "SessionStart" | "UserPromptSubmit";
type Context = HookContext<RecoveryEvent, typeof keys>;
type Deps = typeof import("./deps.ts");

/**
 * The prompt's probe in sh, run by the executable's prelude before Node starts (packages/build): no compaction
 * marker, nothing to do. A marker, or a link where it would be, goes on to Node.
 * @public read by name by packages/build (src/launch.mjs), which runs this file's bundle.
 */
export const shFastPath = {
  UserPromptSubmit: '[ -e "$session/markers/compacted.json" ] || [ -L "$session/markers/compacted.json" ] || exit 0',
};

export const hook: HookDefinition<RecoveryEvent, typeof keys, true> = {
  name: "recovery",
  config: () => import("./config.ts"),
  events: ["SessionStart", "UserPromptSubmit"],

  /** Null for a SessionStart other than compact, or a prompt with no compaction pending (one stat). */
  probe({ payload, session }) {
    if (payload.hook_event_name === "SessionStart") return payload.source === "compact" ? true : null;
    return hasPendingCompaction(session) ? true : null;
  },

  async run(context) {
    const deps = await import("./deps.ts");
    const { input, env, nowMs, config, session } = context;
    const transcript = input.transcript_path || deps.transcriptPath(env, input.cwd, session.id);
    const maxAgeMs = config.hook.markerMaxAgeMs;
    if (input.hook_event_name === "SessionStart") {
      if (input.source !== "compact" || !deps.claimRecovery(session, input.prompt_id, nowMs)) return null;
      // 2.1.332 runs SessionStart(compact) before PostCompact; where PostCompact ran first, its marker has the trigger.
      const marked = deps.readMarker<CompactionFacts>(session, deps.COMPACTED_MARKER, { nowMs, maxAgeMs });
      const trigger = marked && marked.data.promptId === input.prompt_id ? marked.data.trigger : undefined;
      // Its compact_boundary comes later; PostCompact filed it in the ledger only where it ran first (its marker).
      const compaction = { atMs: nowMs, trigger, promptId: input.prompt_id, inTranscript: false, inLedger: !!trigger };
      const text = await recoveryText(deps, context, transcript, compaction);
      deps.recordRecoveryDelivered(session, input.prompt_id, nowMs);
      return deps.contextOutput("SessionStart", { additionalContext: text });
    }

    const pending = deps.takePendingCompaction(session, nowMs, maxAgeMs);
    if (!pending) return null;
    const { trigger, promptId } = pending.marker.data;
    if (pending.delivered) {
      // A SessionStart(compact) delivered, but its context may never have reached the conversation (dropped
      // silently in some versions: claude-code #28305, #15174): then this prompt delivers.
      const query = { hookEvent: "SessionStart", needle: deps.RECOVERY_HEADING };
      if ((await deps.hookContextSinceLastBoundary(transcript, query)) !== "absent") return null;
    } else if (!deps.claimRecovery(session, promptId, nowMs)) {
      return null;
    }
    const compaction = { atMs: pending.marker.createdAtMs, trigger, promptId, inTranscript: true, inLedger: true };
    const text = await recoveryText(deps, context, transcript, compaction, input.permission_mode);
    deps.recordRecoveryDelivered(session, promptId, nowMs);
    return deps.contextOutput("UserPromptSubmit", { additionalContext: text });
  },
};

/** The recovery context: the transcript read once, with the files the session keeps. */
async function recoveryText(
  deps: Deps,
  { config, projectDir, session, log }: Context,
  transcriptPath: string,
  compaction: FactsQuery["compaction"],
  permissionModeNow?: string,
): Promise<string> {
  const { stateDir, changesFile } = config.shared;
  const query = { session, transcriptPath, projectDir, stateDir, changesFile, compaction, permissionModeNow, log };
  return deps.renderRecovery(await deps.gatherFacts(query), config.hook.maxChars);
}
