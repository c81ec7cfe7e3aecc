import { SAFE_SESSION_ID } from "../claude/session-id.ts";
import { CarryoverError } from "../errors.ts";
import {
  type Guard,
  type Infer,
  issuesOf,
  literal,
  looseObject,
  nullable,
  oneOf,
  optional,
  string,
  unknown,
} from "./guards.ts";

// Objects are loose: Claude Code adds fields between versions; only the fields we rely on are checked.
// Built on first use, each once: what a hook constructs at load time is paid on every prompt.

const eventFields = {
  SessionStart: () => ({ source: string(), model: optional(unknown()) }),
  UserPromptSubmit: () => ({ prompt: string(), permission_mode: optional(string()) }),
  PreCompact: () => ({ trigger: oneOf(["manual", "auto"]), custom_instructions: optional(nullable(string())) }),
  PostCompact: () => ({ trigger: oneOf(["manual", "auto"]), compact_summary: optional(nullable(string())) }),
  PostToolUse: () => ({ tool_name: string(), tool_input: optional(unknown()), tool_response: optional(unknown()) }),
};

export type HookEvent = keyof typeof eventFields;

/** The fields every event carries (Claude Code 2.1.332), then the event's own. */
function schemaOf<E extends HookEvent>(event: E) {
  return looseObject({
    session_id: string({ pattern: SAFE_SESSION_ID }),
    transcript_path: optional(string()),
    cwd: string({ minLength: 1 }),
    prompt_id: optional(string()),
    hook_event_name: literal(event),
    ...(eventFields[event]() as ReturnType<(typeof eventFields)[E]>),
  });
}
const built: { [E in HookEvent]?: ReturnType<typeof schemaOf<E>> } = {};

/** One event's payload; a union of events gives the union of their payloads, narrowed by `hook_event_name`. */
export type HookInput<E extends HookEvent> = E extends HookEvent ? Infer<ReturnType<typeof schemaOf<E>>> : never;
export type SessionStartInput = HookInput<"SessionStart">;
export type UserPromptSubmitInput = HookInput<"UserPromptSubmit">;
export type PreCompactInput = HookInput<"PreCompact">;
export type PostCompactInput = HookInput<"PostCompact">;

/** Validates a parsed payload as `event`'s; the error is one line naming the first bad fields. */
export function parseHookInput<E extends HookEvent>(event: E, value: unknown): HookInput<E> {
  const schema = (built[event] ??= schemaOf(event) as never) as Guard<HookInput<E>>;
  const issues = issuesOf(schema, value);
  if (issues.length === 0) return value as HookInput<E>;
  const fields = issues.slice(0, 3).map((issuePath) => {
    const path = issuePath.join(".") || "(payload)";
    const received = issuePath.reduce<unknown>(
      (node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key],
      value,
    );
    return received === undefined ? `${path} missing` : `${path} invalid`;
  });
  throw new CarryoverError("BAD_INPUT", `${event} payload: ${fields.join(", ")}`);
}
