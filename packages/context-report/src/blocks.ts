import { CHARS_PER_TOKEN, IMAGE_TOKENS } from "./tokens.ts";

export type Block = Record<string, unknown>;

export const IMAGE_CHARS = IMAGE_TOKENS * CHARS_PER_TOKEN;

function isBlock(value: unknown): value is Block {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function blocksOf(content: unknown): Block[] {
  return Array.isArray(content) ? content.filter(isBlock) : [];
}

/** Characters of a message content: a string, or text/tool_result blocks (images at their estimate). */
export function textChars(content: unknown): number {
  if (typeof content === "string") return content.length;
  let chars = 0;
  for (const block of blocksOf(content)) {
    if (typeof block.text === "string") chars += block.text.length;
    else if (block.type === "image") chars += IMAGE_CHARS;
    else if (block.content !== undefined) chars += textChars(block.content);
  }
  return chars;
}
