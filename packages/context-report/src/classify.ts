import type { CategoryId, Contribution } from "./model.ts";
import { CHARS_PER_TOKEN, IMAGE_TOKENS } from "./tokens.ts";
import { oneLine, type ToolCalls } from "./tool-calls.ts";

type Block = Record<string, unknown>;

const IMAGE_CHARS = IMAGE_TOKENS * CHARS_PER_TOKEN;
const PROMPT_LABEL_CHARS = 60;
// Attachments Claude Code renders as environment facts beside its system prompt (2.1.332).
const ENVIRONMENT_ATTACHMENTS = new Set(["environment", "model", "date", "session_context", "remote_session_change"]);
const MCP_PREFIX = "mcp__";

function isBlock(value: unknown): value is Block {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function blocksOf(content: unknown): Block[] {
  return Array.isArray(content) ? content.filter(isBlock) : [];
}

/** `mcp__github__create_issue` → `github`. */
export function mcpServerOf(toolName: string): string | undefined {
  if (!toolName.startsWith(MCP_PREFIX)) return undefined;
  return toolName.slice(MCP_PREFIX.length).split("__", 1)[0] || undefined;
}

function toolCategory(name: string): { category: CategoryId; part?: string | undefined } {
  const server = mcpServerOf(name);
  return server ? { category: "mcpTools", part: server } : { category: "tools" };
}

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
      const call = typeof block.id === "string" ? calls.add(block.id, block.name, block.input) : { name: block.name, target: "" };
      const chars = JSON.stringify(block.input ?? {}).length;
      contributions.push({ category: "messages", label: `${call.name} call${call.target ? `: ${call.target}` : ""}`, chars });
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
  if (line.isCompactSummary === true) return [{ category: "messages", label: "compaction summary", chars: textChars(content) }];
  const source = line.isMeta === true ? calls.get(line.sourceToolUseID) : undefined;
  if (source?.name === "Skill") {
    return [{ category: "skills", part: source.target || undefined, label: `skill body: ${source.target || "?"}`, chars: textChars(content) }];
  }
  if (typeof content === "string") return [{ category: "messages", label: promptLabel(content), chars: content.length }];
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

export interface AttachmentLine {
  attachment: Block;
  rendered?: unknown;
}

/**
 * An attachment as the model gets it: its `rendered` text, put in the category its type belongs to.
 * Attachments without rendered text (prompt snapshots, permission records) never reach the model.
 */
export function attachmentContributions({ attachment, rendered }: AttachmentLine): Contribution[] {
  const chars = renderedChars(rendered);
  if (chars === 0) return [];
  const type = typeof attachment.type === "string" ? attachment.type : "attachment";
  switch (type) {
    case "instructions":
      return memoryFiles(attachment.files, chars);
    case "nested_memory": {
      const path = typeof attachment.path === "string" ? attachment.path : "nested CLAUDE.md";
      return [{ category: "memoryFiles", part: memoryPart(path, undefined), label: path, chars }];
    }
    case "skill_listing": {
      const count = typeof attachment.skillCount === "number" ? ` (${attachment.skillCount} skills)` : "";
      return [{ category: "skills", part: "listing", label: `skill listing${count}`, chars }];
    }
    case "invoked_skills":
      return [{ category: "skills", part: "restored after compaction", label: "invoked skills restored after compaction", chars }];
    case "deferred_tools_delta":
      return deferredTools(attachment.addedNames, chars);
    case "agent_listing_delta":
      return [{ category: "tools", label: "agent types listing", chars }];
    case "file": {
      const name = typeof attachment.filename === "string" ? attachment.filename : "?";
      return [{ category: "toolResults", part: "Read", label: `Read (re-attached): ${name}`, chars }];
    }
    default: {
      if (ENVIRONMENT_ATTACHMENTS.has(type)) return [{ category: "systemPrompt", label: `${type} reminder`, chars }];
      const hook = typeof attachment.hookEvent === "string" ? attachment.hookEvent : typeof attachment.hookName === "string" ? attachment.hookName : "";
      return [{ category: "messages", label: hook ? `${type} (${hook})` : type, chars }];
    }
  }
}

function renderedChars(rendered: unknown): number {
  let chars = 0;
  for (const block of blocksOf(rendered)) if (typeof block.content === "string") chars += block.content.length;
  return chars;
}

function memoryFiles(files: unknown, renderedTotal: number): Contribution[] {
  const contributions: Contribution[] = [];
  let fileChars = 0;
  for (const file of blocksOf(files)) {
    const path = typeof file.path === "string" ? file.path : "?";
    const chars = typeof file.content === "string" ? file.content.length : 0;
    fileChars += chars;
    contributions.push({ category: "memoryFiles", part: memoryPart(path, file.type), label: path, chars });
  }
  // The header Claude Code puts around the files ("Codebase and user instructions…", "Contents of …").
  const header = renderedTotal - fileChars;
  if (header > 0) contributions.push({ category: "memoryFiles", part: "Claude Code's header", label: "memory files header", chars: header });
  return contributions;
}

const MEMORY_KINDS: Readonly<Record<string, string>> = { User: "user", Project: "project", Local: "local", Managed: "managed", AutoMem: "auto-memory" };

function memoryPart(path: string, kind: unknown): string {
  const name = path.split(/[\\/]/).pop() || path;
  const described = typeof kind === "string" ? (MEMORY_KINDS[kind] ?? kind.toLowerCase()) : "nested";
  return `${name} (${described})`;
}

function deferredTools(names: unknown, renderedTotal: number): Contribution[] {
  const byServer = new Map<string, number>();
  let mcpChars = 0;
  for (const name of Array.isArray(names) ? names : []) {
    if (typeof name !== "string") continue;
    const server = mcpServerOf(name);
    if (!server) continue;
    byServer.set(server, (byServer.get(server) ?? 0) + name.length + 1);
    mcpChars += name.length + 1;
  }
  const contributions: Contribution[] = [...byServer].map(([server, chars]) => ({
    category: "mcpTools" as const,
    part: server,
    label: `deferred MCP tool names: ${server}`,
    chars,
  }));
  const rest = renderedTotal - mcpChars;
  if (rest > 0) contributions.push({ category: "tools", label: "deferred tool names", chars: rest });
  return contributions;
}

export interface RequestShape {
  system?: unknown;
  tools?: unknown;
}

/** The system prompt and tool definitions of the newest request shape Claude Code recorded. */
export function shapeContributions(shape: RequestShape): Contribution[] {
  const contributions: Contribution[] = [];
  const systemChars = typeof shape.system === "string" ? shape.system.length : textChars(shape.system);
  if (systemChars > 0) contributions.push({ category: "systemPrompt", label: "system prompt", chars: systemChars });
  for (const tool of blocksOf(shape.tools)) {
    const name = typeof tool.name === "string" ? tool.name : "?";
    contributions.push({ ...toolCategory(name), label: `${name} tool definition`, chars: JSON.stringify(tool).length });
  }
  return contributions;
}
