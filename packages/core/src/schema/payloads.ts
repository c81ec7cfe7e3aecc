import { boolean, type Guard, type Infer, issuesOf, literal, looseObject, nullable, number, oneOf, optional, string, unknown } from "./_guards.ts";
import { CarryoverError } from "../errors.ts";
import { SAFE_SESSION_ID } from "../claude/session-id.ts";

// Schemas are built on first use: what a hook constructs at load time is paid on every prompt.
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

function buildStop() {
  return looseObject({
    ...base(),
    hook_event_name: literal("Stop"),
    stop_hook_active: optional(boolean()),
    last_assistant_message: optional(nullable(string())),
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

function buildStatusLine() {
  return looseObject({
    session_id: string({ pattern: SAFE_SESSION_ID }),
    transcript_path: optional(string()),
    cwd: optional(string()),
    model: optional(looseObject({ id: optional(string()), display_name: optional(string()) })),
    workspace: optional(looseObject({ current_dir: optional(string()), project_dir: optional(string()) })),
    context_window: optional(
      looseObject({
        context_window_size: optional(nullable(number())),
        used_percentage: optional(nullable(number())),
        current_usage: optional(
          nullable(
            looseObject({
              input_tokens: optional(nullable(number())),
              cache_creation_input_tokens: optional(nullable(number())),
              cache_read_input_tokens: optional(nullable(number())),
              output_tokens: optional(nullable(number())),
            }),
          ),
        ),
      }),
    ),
  });
}

type Schema = Guard<Record<string, unknown>>;

function lazy<T extends Schema>(build: () => T): () => T {
  let schema: T | undefined;
  return () => (schema ??= build());
}

export const sessionStartInput = /* @__PURE__ */ lazy(buildSessionStart);
export const userPromptSubmitInput = /* @__PURE__ */ lazy(buildUserPromptSubmit);
export const preCompactInput = /* @__PURE__ */ lazy(buildPreCompact);
export const postCompactInput = /* @__PURE__ */ lazy(buildPostCompact);
export const stopInput = /* @__PURE__ */ lazy(buildStop);
export const postToolUseInput = /* @__PURE__ */ lazy(buildPostToolUse);
export const statusLineInput = /* @__PURE__ */ lazy(buildStatusLine);

const builders = {
  SessionStart: sessionStartInput,
  UserPromptSubmit: userPromptSubmitInput,
  PreCompact: preCompactInput,
  PostCompact: postCompactInput,
  Stop: stopInput,
  PostToolUse: postToolUseInput,
  StatusLine: statusLineInput,
};

export type HookEvent = keyof typeof builders;
export type HookInput<E extends HookEvent> = Infer<ReturnType<(typeof builders)[E]>>;
export type SessionStartInput = HookInput<"SessionStart">;
export type UserPromptSubmitInput = HookInput<"UserPromptSubmit">;
export type PreCompactInput = HookInput<"PreCompact">;
export type PostCompactInput = HookInput<"PostCompact">;
export type StopInput = HookInput<"Stop">;
export type PostToolUseInput = HookInput<"PostToolUse">;
export type StatusLineInput = HookInput<"StatusLine">;

/** A hook's accepted events, each with its payload schema (only these get bundled). */
export type HookInputs<E extends HookEvent> = { [K in E]: (typeof builders)[K] };

/** Validates a parsed payload; the error is one line naming the first bad fields. */
export function parseHookInput<E extends HookEvent>(event: E, schema: () => Schema, value: unknown): HookInput<E> {
  const issues = issuesOf(schema(), value);
  if (issues.length === 0) return value as HookInput<E>;
  const fields = issues.slice(0, 3).map((issuePath) => {
    const path = issuePath.join(".") || "(payload)";
    const received = issuePath.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key], value);
    return received === undefined ? `${path} missing` : `${path} invalid`;
  });
  throw new CarryoverError("BAD_INPUT", `${event} payload: ${fields.join(", ")}`);
}
