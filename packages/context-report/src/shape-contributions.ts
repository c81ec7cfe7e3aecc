import { blocksOf, textChars } from "./blocks.ts";
import { mcpServerOf } from "./mcp-server.ts";
import type { CategoryId, Contribution } from "./model.ts";

function toolCategory(name: string): { category: CategoryId; part?: string | undefined } {
  const server = mcpServerOf(name);
  return server ? { category: "mcpTools", part: server } : { category: "tools" };
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
