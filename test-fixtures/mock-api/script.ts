import { sliceJsonArray } from "./json-array.ts";
import type { RequestBlock, RequestMessage, Step } from "./types.ts";

const SCRIPT_MARKER = "MOCKSCRIPT:";

class MockScriptError extends Error {
  readonly code = "MOCKSCRIPT_INVALID";
}

/** Parses the first `MOCKSCRIPT:[…]` in `text`; undefined when there is none. Throws MockScriptError on bad JSON. */
export function parseMockScript(text: string): Step[] | undefined {
  const at = text.indexOf(SCRIPT_MARKER);
  if (at < 0) return undefined;
  const start = text.indexOf("[", at + SCRIPT_MARKER.length);
  const json = start < 0 ? undefined : sliceJsonArray(text, start);
  if (json === undefined) throw new MockScriptError(`MOCKSCRIPT at offset ${at} has no closed JSON array`);
  let steps: unknown;
  try {
    steps = JSON.parse(json);
  } catch (error) {
    throw new MockScriptError(`MOCKSCRIPT at offset ${at} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(steps) || steps.some((step) => typeof step !== "object" || step === null)) {
    throw new MockScriptError(`MOCKSCRIPT at offset ${at} must be an array of objects`);
  }
  return steps as Step[];
}

export interface PromptPosition {
  /** Index of the latest real user prompt in `messages`. */
  index: number;
  /** The prompt's own text, with Claude Code's `<system-reminder>` blocks removed. */
  text: string;
  /** Assistant messages after the prompt: the index of the step to play next. */
  assistantTurns: number;
}

/**
 * Finds the latest user message a person typed: one without tool_result blocks whose text is not only
 * `<system-reminder>` blocks (Claude Code adds those to tool results and prompts alike).
 */
export function latestPrompt(messages: RequestMessage[]): PromptPosition | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "user") continue;
    const blocks = toBlocks(message.content);
    if (blocks.some((block) => block.type === "tool_result")) continue;
    const text = blocks
      .filter((block) => block.type === "text" && typeof block.text === "string")
      .map((block) => stripReminders(block.text!))
      .filter((part) => part.length > 0)
      .join("\n");
    if (text.length === 0) continue;
    const assistantTurns = messages.slice(index + 1).filter((later) => later.role === "assistant").length;
    return { index, text, assistantTurns };
  }
  return undefined;
}

export function toBlocks(content: RequestMessage["content"] | undefined): RequestBlock[] {
  if (content === undefined) return [];
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

function stripReminders(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
}
