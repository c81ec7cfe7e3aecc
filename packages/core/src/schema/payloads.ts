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

function base() {
  return {
    session_id: string({ pattern: SAFE_SESSION_ID }),
    transcript_path: optional(string()),
    cwd: string({ minLength: 1 }),
  };
}

function buildSessionStart() {
  return looseObject({
    ...base(),
    hook_event_name: literal("SessionStart"),
    source: string(),
    model: optional(unknown()),
    prompt_id: optional(string()),
  });
}

function buildUserPromptSubmit() {
  return looseObject({
    ...base(),
    hook_event_name: literal("UserPromptSubmit"),
    prompt: string(),
    prompt_id: optional(string()),
    permission_mode: optional(string()),
  });
}

function buildPreCompact() {
  return looseObject({
    ...base(),
    hook_event_name: literal("PreCompact"),
    trigger: oneOf(["manual", "auto"]),
    custom_instructions: optional(nullable(string())),
    prompt_id: optional(string()),
  });
}

function buildPostCompact() {
  return looseObject({
    ...base(),
    hook_event_name: literal("PostCompact"),
    trigger: oneOf(["manual", "auto"]),
    compact_summary: optional(nullable(string())),
    prompt_id: optional(string()),
  });
}

function buildPostToolUse() {
  return looseObject({
    ...base(),
    hook_event_name: literal("PostToolUse"),
    tool_name: string(),
    tool_input: optional(unknown()),
    tool_response: optional(unknown()),
  });
}

// Built on first use, each once: what a hook constructs at load time is paid on every prompt.
const builders = {
  SessionStart: buildSessionStart,
  UserPromptSubmit: buildUserPromptSubmit,
  PreCompact: buildPreCompact,
  PostCompact: buildPostCompact,
  PostToolUse: buildPostToolUse,
};
const built: { [E in HookEvent]?: ReturnType<(typeof builders)[E]> } = {};

export type HookEvent = keyof typeof builders;
export type HookInput<E extends HookEvent> = Infer<ReturnType<(typeof builders)[E]>>;
export type SessionStartInput = HookInput<"SessionStart">;
export type UserPromptSubmitInput = HookInput<"UserPromptSubmit">;
export type PreCompactInput = HookInput<"PreCompact">;
export type PostCompactInput = HookInput<"PostCompact">;

/** Validates a parsed payload as `event`'s; the error is one line naming the first bad fields. */
export function parseHookInput<E extends HookEvent>(event: E, value: unknown): HookInput<E> {
  const schema = (built[event] ??= builders[event]() as never) as Guard<HookInput<E>>;
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
