import type { ContentBlock, Message } from "./types.ts";

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Splits a complete message into the Messages API streaming event sequence. */
export function messageEvents(message: Message): SseEvent[] {
  const events: SseEvent[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
      },
    },
  ];
  for (const [index, block] of message.content.entries()) events.push(...blockEvents(block, index));
  events.push(
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: message.stop_reason, stop_sequence: null },
        usage: message.usage,
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  );
  return events;
}

function blockEvents(block: ContentBlock, index: number): SseEvent[] {
  const start =
    block.type === "text"
      ? { type: "text", text: "" }
      : { type: "tool_use", id: block.id, name: block.name, input: {} };
  const delta =
    block.type === "text"
      ? { type: "text_delta", text: block.text }
      : { type: "input_json_delta", partial_json: JSON.stringify(block.input) };
  return [
    { event: "content_block_start", data: { type: "content_block_start", index, content_block: start } },
    { event: "content_block_delta", data: { type: "content_block_delta", index, delta } },
    { event: "content_block_stop", data: { type: "content_block_stop", index } },
  ];
}

export function formatSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
