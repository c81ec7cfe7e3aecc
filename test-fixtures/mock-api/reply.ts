import type { ContentBlock, Message, Step, Usage } from "./types.ts";

const DEFAULT_INPUT_TOKENS = 1000;
export const DEFAULT_MODEL = "claude-opus-5-5";

/** Builds the assistant message for one step; tool_use ids are `toolu_mock_<n>_<i>` like the captured payloads. */
export function stepMessage(step: Step, n: number, model: string, usage: Partial<Usage>): Message {
  const content: ContentBlock[] = [];
  if (step.text !== undefined) content.push({ type: "text", text: step.text });
  const tools = [...(step.tool !== undefined ? [{ tool: step.tool, input: step.input }] : []), ...(step.tools ?? [])];
  for (const [i, { tool, input }] of tools.entries()) {
    content.push({ type: "tool_use", id: `toolu_mock_${n}_${i}`, name: tool, input: input ?? {} });
  }
  if (content.length === 0) content.push({ type: "text", text: "" });
  return {
    id: `msg_mock_${n}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: tools.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: step.input_tokens ?? usage.input_tokens ?? DEFAULT_INPUT_TOKENS,
      output_tokens: step.output_tokens ?? usage.output_tokens ?? 5,
      cache_creation_input_tokens: step.cache_creation_input_tokens ?? usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: step.cache_read_input_tokens ?? usage.cache_read_input_tokens ?? 0,
    },
  };
}

export function compactionText(summary: string): string {
  return `<analysis>mock analysis</analysis>\n<summary>${summary}</summary>`;
}
