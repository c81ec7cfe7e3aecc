const MCP_PREFIX = "mcp__";

/** `mcp__github__create_issue` → `github`; undefined for a tool that is not an MCP server's. */
export function mcpServerOf(toolName: string): string | undefined {
  if (!toolName.startsWith(MCP_PREFIX)) return undefined;
  return toolName.slice(MCP_PREFIX.length).split("__", 1)[0] || undefined;
}
