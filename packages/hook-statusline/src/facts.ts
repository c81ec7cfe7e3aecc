import { contextTokensOf } from "@carryover/core";

/** What the statusline reads from Claude Code's status line stdin (2.1.332, behaviour.md §1.4). */
export interface StatusLineFacts {
  modelId: string | undefined;
  modelName: string | undefined;
  /** `context_window_size`: the model window, not the auto-compact point. */
  windowTokens: number | undefined;
  /** input + cache creation + cache read of the last response; null before the first one (`current_usage: null`). */
  contextTokens: number | null;
}

type Json = Record<string, unknown>;

function objectAt(value: unknown, key: string): Json | undefined {
  const child = (value as Json | undefined)?.[key];
  return child !== null && typeof child === "object" && !Array.isArray(child) ? (child as Json) : undefined;
}

function stringAt(value: Json | undefined, key: string): string | undefined {
  const child = value?.[key];
  return typeof child === "string" && child !== "" ? child : undefined;
}

function countAt(value: Json | undefined, key: string): number | undefined {
  const child = value?.[key];
  return typeof child === "number" && Number.isFinite(child) && child >= 0 ? child : undefined;
}

/**
 * Reads the fields by hand instead of through a schema: the statusline runs after every response and
 * must start as fast as `node -e 0`, and a field of the wrong type only hides its own part of the line.
 */
export function statusLineFacts(payload: Json): StatusLineFacts {
  const model = objectAt(payload, "model");
  const contextWindow = objectAt(payload, "context_window");
  const usage = objectAt(contextWindow, "current_usage");
  const windowTokens = countAt(contextWindow, "context_window_size");
  return {
    modelId: stringAt(model, "id"),
    modelName: stringAt(model, "display_name"),
    windowTokens: windowTokens && windowTokens > 0 ? windowTokens : undefined,
    contextTokens: usage
      ? contextTokensOf({
          input_tokens: countAt(usage, "input_tokens"),
          cache_creation_input_tokens: countAt(usage, "cache_creation_input_tokens"),
          cache_read_input_tokens: countAt(usage, "cache_read_input_tokens"),
        })
      : null,
  };
}
