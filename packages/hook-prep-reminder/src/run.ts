// UserPromptSubmit: once per level per session (re-armed after a compaction), tells the user the context
// passed a level of the auto-compact point and that /compact-prep saves the session first; the agent gets the facts.
import {
  contextOutput,
  currentUsage,
  type HookContext,
  type HookDefinition,
  type HookJsonOutput,
  levelPercent,
  userPromptSubmitInput,
} from "@carryover/core";
import { claimLevel } from "./claim.ts";
import { reminderParts } from "./texts.ts";

// The user is running the skill the reminder is about: the level counts as told, silently.
const PREPARING = /^\s*\/compact-prep(\s|$)/;

export function run({ input, env, nowMs, config, projectDir }: HookContext<"UserPromptSubmit", "prep-reminder">): HookJsonOutput | null {
  const sessionId = input.session_id;
  const { levels, freshReadingMs, contextWindowTokens } = config.shared;
  // A fresh statusline reading, else the transcript's tail (print mode, SDK: no statusline runs there).
  const reading = currentUsage({ env, sessionId, transcriptPath: input.transcript_path, projectDir, nowMs, freshReadingMs, contextWindowTokens });
  // No reading yet (first prompt), or auto-compaction off: nothing to prepare for.
  if (!reading || reading.autoCompactTokens === null) return null;
  const percent = levelPercent(reading);
  const level = claimLevel(env, sessionId, percent, { levels, mutedLevels: config.hook.mutedLevels, nowMs });
  if (level === null || PREPARING.test(input.prompt)) return null;
  return contextOutput("UserPromptSubmit", reminderParts(config.hook, { ...reading, autoCompactTokens: reading.autoCompactTokens }, percent, level));
}

export const prepReminderHook: HookDefinition<"UserPromptSubmit", "prep-reminder"> = {
  name: "prep-reminder",
  inputs: { UserPromptSubmit: userPromptSubmitInput },
  run,
};
