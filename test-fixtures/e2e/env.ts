/**
 * Variables a parent process may carry that would leak into the Claude Code under test: the tests may
 * themselves run inside Claude Code (CLAUDECODE, CLAUDE_CODE_*, AI_AGENT), with a real key (ANTHROPIC_*),
 * inside tmux, or with carryover switches set (CARRYOVER*).
 */
const INHERITED_PREFIXES = ["CLAUDE", "ANTHROPIC", "CARRYOVER", "AI_AGENT", "TMUX", "XDG_", "PROBE_"];

export function inheritedEnv(parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined || INHERITED_PREFIXES.some((prefix) => key.startsWith(prefix))) continue;
    env[key] = value;
  }
  return env;
}
