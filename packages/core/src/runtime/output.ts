import { capText } from "../text/cap.ts";

/** The JSON a context-giving hook prints (UserPromptSubmit, SessionStart, PostToolUse). */
export interface HookJsonOutput {
  hookSpecificOutput?: { hookEventName: string; additionalContext: string };
  /** Shown to the user; never reaches the model (Claude Code 2.1.332). */
  systemMessage?: string;
}

/** What a hook's `run` returns: JSON for the context events, plain text for PreCompact and the statusline. */
export type HookResult = HookJsonOutput | string | null | undefined;

/** Claude Code cuts hook context above 10,000 characters; we cut first, visibly. */
export const MAX_CONTEXT_CHARS = 10_000;

type ContextEvent = "UserPromptSubmit" | "SessionStart" | "PostToolUse";

/** Context for the agent and/or a message for the user; null when there is neither. */
export function contextOutput(
  event: ContextEvent,
  parts: { additionalContext?: string | undefined; systemMessage?: string | undefined },
): HookJsonOutput | null {
  const output: HookJsonOutput = {};
  if (parts.additionalContext) {
    output.hookSpecificOutput = {
      hookEventName: event,
      additionalContext: capText(parts.additionalContext, MAX_CONTEXT_CHARS),
    };
  }
  if (parts.systemMessage) output.systemMessage = capText(parts.systemMessage, MAX_CONTEXT_CHARS);
  return output.hookSpecificOutput || output.systemMessage ? output : null;
}
