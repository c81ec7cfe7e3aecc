import * as z from "zod/mini";
import { CarryoverError } from "./errors.ts";
import { SAFE_SESSION_ID } from "./session-id.ts";

// Schemas are built on first use: what a hook constructs at load time is paid on every prompt.
// Objects are loose: Claude Code adds fields between versions; only the fields we rely on are checked.

function base() {
  return {
    session_id: z.string().check(z.regex(SAFE_SESSION_ID)),
    transcript_path: z.optional(z.string()),
    cwd: z.string().check(z.minLength(1)),
  };
}

function buildSessionStart() {
  return z.looseObject({
      ...base(),
      hook_event_name: z.literal("SessionStart"),
      source: z.string(),
      model: z.optional(z.unknown()),
      prompt_id: z.optional(z.string()),
    });
}

function buildUserPromptSubmit() {
  return z.looseObject({
      ...base(),
      hook_event_name: z.literal("UserPromptSubmit"),
      prompt: z.string(),
      prompt_id: z.optional(z.string()),
      permission_mode: z.optional(z.string()),
    });
}

function buildPreCompact() {
  return z.looseObject({
      ...base(),
      hook_event_name: z.literal("PreCompact"),
      trigger: z.enum(["manual", "auto"]),
      custom_instructions: z.optional(z.nullable(z.string())),
      prompt_id: z.optional(z.string()),
    });
}

function buildPostCompact() {
  return z.looseObject({
      ...base(),
      hook_event_name: z.literal("PostCompact"),
      trigger: z.enum(["manual", "auto"]),
      compact_summary: z.optional(z.nullable(z.string())),
      prompt_id: z.optional(z.string()),
    });
}

function buildStop() {
  return z.looseObject({
      ...base(),
      hook_event_name: z.literal("Stop"),
      stop_hook_active: z.optional(z.boolean()),
      last_assistant_message: z.optional(z.nullable(z.string())),
    });
}

function buildPostToolUse() {
  return z.looseObject({
      ...base(),
      hook_event_name: z.literal("PostToolUse"),
      tool_name: z.string(),
      tool_input: z.optional(z.unknown()),
      tool_response: z.optional(z.unknown()),
    });
}

function buildStatusLine() {
  return z.looseObject({
      session_id: z.string().check(z.regex(SAFE_SESSION_ID)),
      transcript_path: z.optional(z.string()),
      cwd: z.optional(z.string()),
      model: z.optional(z.looseObject({ id: z.optional(z.string()), display_name: z.optional(z.string()) })),
      workspace: z.optional(z.looseObject({ current_dir: z.optional(z.string()), project_dir: z.optional(z.string()) })),
      context_window: z.optional(
        z.looseObject({
          context_window_size: z.optional(z.nullable(z.number())),
          used_percentage: z.optional(z.nullable(z.number())),
          current_usage: z.optional(
            z.nullable(
              z.looseObject({
                input_tokens: z.optional(z.nullable(z.number())),
                cache_creation_input_tokens: z.optional(z.nullable(z.number())),
                cache_read_input_tokens: z.optional(z.nullable(z.number())),
                output_tokens: z.optional(z.nullable(z.number())),
              }),
            ),
          ),
        }),
      ),
    });
}

type Schema = ReturnType<typeof z.looseObject>;

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
export type HookInput<E extends HookEvent> = z.infer<ReturnType<(typeof builders)[E]>>;
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
  const result = schema().safeParse(value);
  if (result.success) return result.data as HookInput<E>;
  const fields = result.error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.join(".") || "(payload)";
    const received = issue.path.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key], value);
    return received === undefined ? `${path} missing` : `${path} invalid`;
  });
  throw new CarryoverError("BAD_INPUT", `${event} payload: ${fields.join(", ")}`);
}
