import { toBlocks } from "./script.ts";
import type { MessagesBody, RequestKind } from "./types.ts";

/** Start of the compaction prompt Claude Code 2.1.332 appends to the last user message of a summary request. */
const COMPACTION_MARKER = "Your task is to create a detailed summary of the conversation so far";

/** Below this `max_tokens` a request is one of Claude Code's side queries (titles, topics, quota checks). */
const SIDE_MAX_TOKENS = 1024;

/** Classifies a POST /v1/messages body. Main and compaction requests carry the tool list; side queries do not. */
export function classifyMessages(body: MessagesBody | undefined): RequestKind {
  const messages = body?.messages ?? [];
  const lastUser = [...messages].reverse().find((message) => message.role === "user");
  const lastUserText = toBlocks(lastUser?.content)
    .map((block) => (block.type === "text" ? (block.text ?? "") : ""))
    .join("\n");
  if (lastUserText.includes(COMPACTION_MARKER)) return "compaction";
  const hasTools = Array.isArray(body?.tools) && body.tools.length > 0;
  if (!hasTools || (body?.max_tokens ?? Infinity) < SIDE_MAX_TOKENS) return "side";
  return "main";
}
