/**
 * Variables a parent process may carry that would leak into the Claude Code under test: the tests may
 * themselves run inside Claude Code (CLAUDECODE, CLAUDE_CODE_*, AI_AGENT), with a real key (ANTHROPIC_*),
 * inside tmux, or with carryover switches set (CARRYOVER*).
 */
const INHERITED_PREFIXES = ["CLAUDE", "ANTHROPIC", "CARRYOVER", "AI_AGENT", "TMUX", "XDG_", "PROBE_", "VITEST"];

/** What vitest (through Vite) puts into a worker's environment, plus Node switches the hooks must not inherit. */
const INHERITED_NAMES = new Set([
  "BASE_URL",
  "DEV",
  "MODE",
  "PROD",
  "SSR",
  "TEST",
  "NODE_ENV",
  "FORCE_TTY",
  "NODE_OPTIONS",
]);

/** The parent environment without anything that could change how Claude Code or a hook behaves. */
export function inheritedEnv(parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined || INHERITED_NAMES.has(key) || INHERITED_PREFIXES.some((prefix) => key.startsWith(prefix)))
      continue;
    env[key] = value;
  }
  return env;
}
