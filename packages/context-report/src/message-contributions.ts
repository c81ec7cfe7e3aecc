import { blocksOf, IMAGE_CHARS, textChars } from "./blocks.ts";
import type { Contribution } from "./model.ts";
import { oneLine, type ToolCalls } from "./tool-calls.ts";

const PROMPT_LABEL_CHARS = 60;

/** Text, thinking and tool calls of one assistant line; the calls are remembered for their results. */
export function assistantContributions(content: unknown, calls: ToolCalls): Contribution[] {
  if (typeof content === "string") return [{ category: "messages", label: "assistant text", chars: content.length }];
  const contributions: Contribution[] = [];
  for (const block of blocksOf(content)) {
    if (block.type === "text" && typeof block.text === "string") {
      contributions.push({ category: "messages", label: "assistant text", chars: block.text.length });
    } else if (block.type === "thinking" && typeof block.thinking === "string") {
      contributions.push({ category: "messages", label: "assistant thinking", chars: block.thinking.length });
    } else if (block.type === "tool_use" && typeof block.name === "string") {
      const call =
        typeof block.id === "string" ? calls.add(block.id, block.name, block.input) : { name: block.name, target: "" };
      const chars = JSON.stringify(block.input ?? {}).length;
      contributions.push({
        category: "messages",
        label: `${call.name} call${call.target ? `: ${call.target}` : ""}`,
        chars,
      });
    }
  }
  return contributions;
}

export interface UserLine {
  content: unknown;
  isMeta?: unknown;
  isCompactSummary?: unknown;
  sourceToolUseID?: unknown;
}

/** A user line: a prompt, tool results, a skill body, the compaction summary, or a command echo. */
export function userContributions(line: UserLine, calls: ToolCalls): Contribution[] {
  const { content } = line;
  if (line.isCompactSummary === true)
    return [{ category: "messages", label: "compaction summary", chars: textChars(content) }];
  const source = line.isMeta === true ? calls.get(line.sourceToolUseID) : undefined;
  if (source?.name === "Skill") {
    return [
      {
        category: "skills",
        part: source.target || undefined,
        label: `skill body: ${source.target || "?"}`,
        chars: textChars(content),
      },
    ];
  }
  if (typeof content === "string")
    return [{ category: "messages", label: promptLabel(content), chars: content.length }];
  const contributions: Contribution[] = [];
  for (const block of blocksOf(content)) {
    if (block.type === "tool_result") {
      const call = calls.get(block.tool_use_id);
      const tool = call?.name ?? "unknown tool";
      const label = `${tool}${call?.target ? `: ${call.target}` : ""}`;
      contributions.push({ category: "toolResults", part: tool, label, chars: textChars(block.content) });
    } else if (block.type === "text" && typeof block.text === "string") {
      contributions.push({ category: "messages", label: promptLabel(block.text), chars: block.text.length });
    } else if (block.type === "image") {
      contributions.push({ category: "messages", label: "image", chars: IMAGE_CHARS });
    }
  }
  return contributions;
}

function promptLabel(text: string): string {
  return `prompt: ${oneLine(text, PROMPT_LABEL_CHARS)}`;
}
