// UserPromptSubmit, and SessionStart with matcher `compact`: re-injects what the user pinned in the project's
// and the user's pinned.md, every turn (or every N) and always right after a compaction.
import { contextOutput, type HookContext, type HookDefinition, type HookJsonOutput, sessionStartInput, userPromptSubmitInput } from "@carryover/core";
import { digestOf, recordInjection, takePromptTurn } from "./cadence.ts";
import { capWarning, pinnedContext } from "./framing.ts";
import { pinnedPaths, readPinned } from "./pinned.ts";

type PinEvent = "UserPromptSubmit" | "SessionStart";

export function run({ input, env, config, projectDir, log }: HookContext<PinEvent, "pin">): HookJsonOutput | null {
  if (input.hook_event_name === "SessionStart" && input.source !== "compact") return null;
  const { everyTurns, maxBytes } = config.hook;
  const { pins, problems } = readPinned(pinnedPaths(projectDir, env), maxBytes);
  for (const problem of problems) log(problem);
  const problemMessage = problems.length > 0 ? `carryover pin: ${problems.join("; ")}` : undefined;
  if (pins.length === 0) return contextOutput(input.hook_event_name, { systemMessage: problemMessage });

  const context = pinnedContext(pins, maxBytes);
  // With everyTurns 1 nothing needs counting: no state file, no dir.
  if (everyTurns > 1) {
    const digest = digestOf(context);
    if (input.hook_event_name === "SessionStart") recordInjection(env, input.session_id, digest);
    else if (!takePromptTurn(env, input.session_id, everyTurns, digest)) {
      return contextOutput(input.hook_event_name, { systemMessage: problemMessage });
    }
  }
  const warnings = [capWarning(pins, maxBytes), problemMessage].filter(Boolean).join("\n");
  return contextOutput(input.hook_event_name, { additionalContext: context, systemMessage: warnings || undefined });
}

export const pinHook: HookDefinition<PinEvent, "pin"> = {
  name: "pin",
  inputs: { UserPromptSubmit: userPromptSubmitInput, SessionStart: sessionStartInput },
  run,
};
