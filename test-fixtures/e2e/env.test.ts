import { expect, test } from "vitest";
import { inheritedEnv } from "./env.ts";

test("inheritedEnv drops Claude Code, Anthropic, carryover, tmux and vitest variables and keeps the rest", () => {
  const env = inheritedEnv({
    PATH: "/usr/bin",
    LANG: "C.UTF-8",
    CLAUDECODE: "1",
    CLAUDE_CODE_SESSION_ID: "s",
    ANTHROPIC_API_KEY: "sk-real",
    ANTHROPIC_BASE_URL: "https://example.invalid",
    AI_AGENT: "claude-code",
    CARRYOVER: "0",
    TMUX: "/tmp/tmux-0/default,1,0",
    VITEST_WORKER_ID: "1",
    NODE_ENV: "test",
    XDG_CONFIG_HOME: "/root/.config",
  });
  expect(env).toEqual({ PATH: "/usr/bin", LANG: "C.UTF-8" });
});
