/** Claude Code cuts hook output above 10,000 characters (2.1.332); carryover must never get there. */
const MAX_OUTPUT_CHARS = 10_000;

// The events whose hookSpecificOutput Claude Code 2.1.332 accepts; for PreCompact/PostCompact it is invalid.
const CONTEXT_EVENTS = new Set(["UserPromptSubmit", "SessionStart", "PostToolUse"]);

/**
 * What is wrong with one run's stdout, or null: over the size limit, JSON that does not parse, a
 * hookSpecificOutput for another event than the payload's (Claude Code rejects the whole output), or a
 * blank status line (Claude Code then shows nothing at all).
 */
export function outputProblem(output: string, payloadEvent: unknown, isStatusLine: boolean): string | null {
  if (output.length > MAX_OUTPUT_CHARS) return `output of ${output.length} chars`;
  if (isStatusLine) return output.trim() === "" ? "blank status line" : null;
  if (!output.startsWith("{")) return null;
  let value: { hookSpecificOutput?: { hookEventName?: unknown } };
  try {
    value = JSON.parse(output);
  } catch {
    return "output starts like JSON but does not parse";
  }
  const named = value.hookSpecificOutput?.hookEventName;
  if (named === undefined) return null;
  if (named !== payloadEvent || !CONTEXT_EVENTS.has(String(named)))
    return `hookSpecificOutput for ${JSON.stringify(named)} on a ${JSON.stringify(payloadEvent)} payload`;
  return null;
}

/** The event a case's payload names, when it is a JSON object at all. */
export function payloadEvent(text: string): unknown {
  try {
    return (JSON.parse(text) as { hook_event_name?: unknown } | null)?.hook_event_name;
  } catch {
    return undefined;
  }
}
