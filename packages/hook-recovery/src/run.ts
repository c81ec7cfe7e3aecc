// SessionStart (matcher compact) and UserPromptSubmit: right after a compaction, tells the agent where the
// session's state file, plan, task list and changes log are; exactly once, by whichever channel runs first.
import {
  COMPACTED_MARKER,
  type CompactionFacts,
  contextOutput,
  type HookContext,
  type HookDefinition,
  type HookJsonOutput,
  hasPendingCompaction,
  readMarker,
  RECOVERY_DELIVERED_MARKER,
  recordRecoveryDelivered,
  removeMarker,
  sessionStartInput,
  takePendingCompaction,
  transcriptPath,
  userPromptSubmitInput,
} from "@carryover/core";
import { claimRecovery } from "./claim.ts";
import { type FactsQuery, gatherFacts } from "./facts.ts";
import { hookContextSinceLastBoundary } from "./hook-context.ts";
import { RECOVERY_HEADING, renderRecovery } from "./render.ts";

type RecoveryEvent = "SessionStart" | "UserPromptSubmit";
type Context = HookContext<RecoveryEvent, "recovery">;

export async function run(context: Context): Promise<HookJsonOutput | null> {
  const { input, env, nowMs, config } = context;
  const sessionId = input.session_id;
  const transcript = input.transcript_path || transcriptPath(env, input.cwd, sessionId);
  if (input.hook_event_name === "SessionStart") {
    if (input.source !== "compact") return null;
    if (!claimRecovery(env, sessionId, input.prompt_id, nowMs)) return null;
    // 2.1.332 runs SessionStart(compact) before PostCompact; where PostCompact came first, its marker has the trigger.
    const marked = readMarker<CompactionFacts>(env, sessionId, COMPACTED_MARKER, { nowMs, maxAgeMs: config.hook.markerMaxAgeMs });
    const sameCompaction = marked && marked.data.promptId === input.prompt_id ? marked.data : undefined;
    const text = await recoveryText(context, transcript, { atMs: nowMs, trigger: sameCompaction?.trigger, promptId: input.prompt_id });
    recordRecoveryDelivered(env, sessionId, input.prompt_id, nowMs);
    return contextOutput("SessionStart", { additionalContext: text });
  }

  if (!hasPendingCompaction(env, sessionId)) return null;
  // A SessionStart(compact) that ran but whose context never reached the conversation (dropped silently in
  // some versions: claude-code #28305, #15174) has not delivered: this prompt does.
  const dropped = (await hookContextSinceLastBoundary(transcript, { hookEvent: "SessionStart", needle: RECOVERY_HEADING })) === "absent";
  if (dropped) removeMarker(env, sessionId, RECOVERY_DELIVERED_MARKER);
  const compaction = takePendingCompaction(env, sessionId, nowMs, config.hook.markerMaxAgeMs);
  if (!compaction) return null;
  const { trigger, promptId } = compaction.data;
  if (!dropped && !claimRecovery(env, sessionId, promptId, nowMs)) return null;
  const text = await recoveryText(context, transcript, { atMs: compaction.createdAtMs, trigger, promptId }, input.permission_mode);
  recordRecoveryDelivered(env, sessionId, promptId, nowMs);
  return contextOutput("UserPromptSubmit", { additionalContext: text });
}

async function recoveryText(
  context: Context,
  transcript: string,
  compaction: FactsQuery["compaction"],
  permissionModeNow?: string,
): Promise<string> {
  const { input, env, config, projectDir, log } = context;
  const facts = await gatherFacts({
    env,
    sessionId: input.session_id,
    transcriptPath: transcript,
    projectDir,
    stateDir: config.shared.stateDir,
    changesFile: config.shared.changesFile,
    compaction,
    permissionModeNow,
    log,
  });
  return renderRecovery(facts, config.hook.maxChars);
}

export const recoveryHook: HookDefinition<RecoveryEvent, "recovery"> = {
  name: "recovery",
  inputs: { SessionStart: sessionStartInput, UserPromptSubmit: userPromptSubmitInput },
  run,
};
