import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { projectPinnedPath, userPinnedPath } from "../../packages/hook-pin/src/pinned.ts";
import type { CaseContext, HookCases } from "./types.ts";

const PINNED = "- Never push to main; open a PR.\n- Node 20 only: no TS strip-types.\n- Keep bundles under 30 KB.\n";

function prompt(context: CaseContext) {
  return context.captured("user-prompt-submit");
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
      },
      expect: null,
    },
    {
      name: "active",
      everyPrompt: true,
      what: "UserPromptSubmit, a project pinned.md: re-injects it",
      payload: prompt,
      setup: (context) => {
        const path = projectPinnedPath(context.projectDir);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, PINNED);
      },
      expect: "Never push to main",
    },
  ],
};
