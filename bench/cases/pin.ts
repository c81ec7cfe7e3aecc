import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { userConfigPath } from "../../packages/core/src/index.ts";
import { projectPinnedPath, userPinnedPath } from "../../packages/hook-pin/src/pinned.ts";
import type { CaseContext, HookCases } from "./types.ts";

const PINNED = "- Never push to main; open a PR.\n- Node 20 only: no TS strip-types.\n- Keep bundles under 30 KB.\n";

function prompt(context: CaseContext) {
  return context.captured("user-prompt-submit");
}

function pinProject(context: CaseContext, config: boolean) {
  const path = projectPinnedPath(context.projectDir);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, PINNED);
  const configPath = userConfigPath(context.env);
  if (!config) return rmSync(configPath, { force: true });
  mkdirSync(dirname(configPath), { recursive: true });
  writeFileSync(configPath, JSON.stringify({ pin: { everyTurns: 1 } }));
}

export const cases: HookCases = {
  hook: "pin",
  cases: [
    {
      name: "fast",
      everyPrompt: true,
      what: "UserPromptSubmit, nothing pinned (one lstat per pinned.md)",
      payload: prompt,
      setup: (context) => {
        rmSync(projectPinnedPath(context.projectDir), { force: true });
        rmSync(userPinnedPath(context.env), { force: true });
        rmSync(userConfigPath(context.env), { force: true });
      },
      expect: null,
    },
    {
      name: "active",
      everyPrompt: true,
      what: "UserPromptSubmit, a project pinned.md, pin's keys at their defaults: sh and awk re-inject it",
      payload: prompt,
      setup: (context) => pinProject(context, false),
      expect: "Never push to main",
    },
    {
      name: "active, configured",
      everyPrompt: true,
      what: "the same with a config file that sets pin's keys: Node reads it, then re-injects the pin",
      payload: prompt,
      setup: (context) => pinProject(context, true),
      expect: "Never push to main",
    },
  ],
};
