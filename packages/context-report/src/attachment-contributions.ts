import { type Block, blocksOf } from "./blocks.ts";
import { mcpServerOf } from "./mcp-server.ts";
import type { Contribution } from "./model.ts";

// Attachments Claude Code renders as environment facts beside its system prompt (2.1.332).
const ENVIRONMENT_ATTACHMENTS = new Set(["environment", "model", "date", "session_context", "remote_session_change"]);

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
      return [
        {
          category: "skills",
          part: "restored after compaction",
          label: "invoked skills restored after compaction",
          chars,
        },
      ];
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
      const hook =
        typeof attachment.hookEvent === "string"
          ? attachment.hookEvent
          : typeof attachment.hookName === "string"
            ? attachment.hookName
            : "";
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
  if (header > 0)
    contributions.push({
      category: "memoryFiles",
      part: "Claude Code's header",
      label: "memory files header",
      chars: header,
    });
  return contributions;
}

const MEMORY_KINDS: Readonly<Record<string, string>> = {
  User: "user",
  Project: "project",
  Local: "local",
  Managed: "managed",
  AutoMem: "auto-memory",
};

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
