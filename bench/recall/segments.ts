import type { MessagesBody, RequestBlock } from "../../test-fixtures/mock-api/types.ts";

/** A piece of a request, with who put it there: carryover's hooks, or Claude Code itself. */
export interface Segment {
  by: "carryover" | "claude";
  label: string;
  text: string;
}

// Claude Code 2.1.332 sends hook contexts inside a role:"system" message, one paragraph per event after
// this prefix; its own reminders are the other paragraphs of the same text.
const HOOK_CONTEXT = /^[A-Za-z]+(?::\w+)? hook (?:additional context|success): /;
const CARRYOVER_COMMAND = /carryover-[a-z-]+ (?:PreCompact|PostCompact)\]/;

const CLAUDE_LABELS: ReadonlyArray<[RegExp, string]> = [
  [/^Background shell /, "Claude Code's background-shell reminder"],
  [/^Background agent |^Task \w+ \(type: local_agent\)/, "Claude Code's subagent reminder"],
  [/^Plan mode is active|^A plan file exists/, "Claude Code's plan-mode reminder"],
  [/Result of calling the Read tool|Called the Read tool/, "a file Claude Code re-read"],
  [/existing tasks/, "Claude Code's task reminder"],
];
const OWN_CONTEXT = "Claude Code's own context";
// Paragraphs that start a reminder of Claude Code's own; any other paragraph continues the one before it.
const CLAUDE_STARTS = [
  "The following deferred tools",
  "Available agent types",
  "The following skills",
  "# Environment",
  "You are powered",
  "Today's date",
];

/**
 * Splits a request into segments, each carryover's or Claude Code's, in the order the model reads them;
 * `fileLabel` names a file Claude Code re-attached after the compaction.
 */
export function requestSegments(body: MessagesBody | undefined, fileLabel: (path: string) => string): Segment[] {
  if (!body) return [];
  const segments: Segment[] = [];
  let reread = "";
  const system =
    typeof body.system === "string" ? body.system : (body.system ?? []).map((block) => block.text ?? "").join("\n");
  segments.push({ by: "claude", label: "the system prompt", text: system });
  for (const message of body.messages ?? []) {
    const blocks: RequestBlock[] =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    for (const block of blocks) {
      const text = blockText(block);
      if (!text) continue;
      // Claude Code re-attaches the files last read or written: a "Called the Read tool" block, then its result.
      const called = /Called the Read tool with the following input: (\{.*\})/.exec(text)?.[1];
      if (called) reread = (JSON.parse(called) as { file_path?: string }).file_path ?? "";
      if (message.role === "system") segments.push(...paragraphs(text));
      else if (reread && text.includes("Result of calling the Read tool")) {
        segments.push({ by: "claude", label: `Claude Code's re-read of ${fileLabel(reread)}`, text });
      } else if (block.type === "text") segments.push(...userOrAssistantText(text, message.role));
      else segments.push({ by: "claude", label: "the messages Claude Code kept", text });
    }
  }
  return segments;
}

function blockText(block: RequestBlock): string {
  if (block.type === "text") return block.text ?? "";
  if (block.type === "tool_use") return `${block.name ?? ""} ${JSON.stringify(block.input ?? {})}`;
  if (block.type === "tool_result") {
    if (typeof block.content === "string") return block.content;
    return (block.content ?? []).map(blockText).join("\n");
  }
  return "";
}

function paragraphs(text: string): Segment[] {
  const segments: Segment[] = [];
  let previous = OWN_CONTEXT;
  for (const paragraph of text.split("\n\n")) {
    if (HOOK_CONTEXT.test(paragraph)) {
      segments.push({ by: "carryover", label: hookLabel(paragraph), text: paragraph });
      previous = OWN_CONTEXT;
      continue;
    }
    const own = claudeLabel(paragraph);
    previous = own !== OWN_CONTEXT || CLAUDE_STARTS.some((start) => paragraph.startsWith(start)) ? own : previous;
    segments.push({ by: "claude", label: previous, text: paragraph });
  }
  return segments;
}

function userOrAssistantText(text: string, role: string): Segment[] {
  // After a manual /compact, Claude Code reports each compaction hook's stdout in the next user message.
  if (text.includes("<local-command-stdout>") && CARRYOVER_COMMAND.test(text)) {
    return [{ by: "carryover", label: "PreCompact's output, echoed by Claude Code", text }];
  }
  // MEMORY.md, loaded by Claude Code, holds carryover's one index line among the user's own.
  if (text.includes("MEMORY.md") && text.includes("carryover-session-")) {
    const lines = text.split("\n");
    const ours = lines.filter((line) => line.includes("carryover-session-"));
    return [
      {
        by: "claude",
        label: "MEMORY.md, loaded by Claude Code",
        text: lines.filter((line) => !ours.includes(line)).join("\n"),
      },
      { by: "carryover", label: "carryover's line in MEMORY.md", text: ours.join("\n") },
    ];
  }
  return [{ by: "claude", label: role === "assistant" ? "the messages Claude Code kept" : claudeLabel(text), text }];
}

function hookLabel(paragraph: string): string {
  const event = /^([A-Za-z]+)/.exec(paragraph)?.[1] ?? "hook";
  const parts = [
    paragraph.includes("carryover recovery:") ? "recovery" : "",
    paragraph.includes("Pinned by the user in") ? "pin" : "",
  ].filter(Boolean);
  return `carryover's ${event} context${parts.length > 0 ? ` (${parts.join(", ")})` : ""}`;
}

function claudeLabel(text: string): string {
  for (const [pattern, label] of CLAUDE_LABELS) if (pattern.test(text)) return label;
  if (text.startsWith("This session is being continued")) return "the summary";
  return OWN_CONTEXT;
}
