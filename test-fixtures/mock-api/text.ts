import { toBlocks } from "./script.ts";
import type { MessagesBody, RecordedRequest, RequestBlock, RequestMessage } from "./types.ts";

/**
 * Flattens a request into one string for assertions: the system prompt, then every message's text,
 * tool_use input and tool_result content in order, each message headed by `[role]`. Claude Code 2.1.332
 * sends hook contexts as role:"system" messages inside `messages`, so those are included too.
 */
export function requestText(request: RecordedRequest | MessagesBody | undefined): string {
  const body = request !== undefined && isRecorded(request) ? request.body : request;
  if (body === undefined) return "";
  const parts: string[] = [];
  if (body.system !== undefined)
    parts.push(
      `[system]\n${typeof body.system === "string" ? body.system : blocksText(body.system as RequestBlock[])}`,
    );
  for (const message of body.messages ?? []) parts.push(messageText(message));
  return parts.join("\n");
}

export function messageText(message: RequestMessage): string {
  return `[${message.role}]\n${blocksText(toBlocks(message.content))}`;
}

function isRecorded(request: RecordedRequest | MessagesBody): request is RecordedRequest {
  return "kind" in request && "path" in request && "method" in request;
}

function blocksText(blocks: RequestBlock[]): string {
  return blocks
    .map(blockText)
    .filter((text) => text.length > 0)
    .join("\n");
}

function blockText(block: RequestBlock): string {
  switch (block.type) {
    case "text":
      return block.text ?? "";
    case "tool_use":
      return `tool_use ${block.name ?? ""} ${JSON.stringify(block.input ?? {})}`;
    case "tool_result":
      return typeof block.content === "string" ? block.content : blocksText(block.content ?? []);
    default:
      return "";
  }
}
