import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { autoMemoryDir } from "../../packages/core/src/index.ts";
import type { CaseContext, HookCases } from "./types.ts";

function memoryIndexPath(context: CaseContext): string {
  return join(autoMemoryDir(context.env, context.projectDir), "MEMORY.md");
}

/** A Write as Claude Code reports it after the tool ran, of `filePath`. */
function wrote(context: CaseContext, filePath: string) {
  const payload = context.captured("post-tool-use.write");
  const content = "- [decision] keep bundles small\n";
  payload.tool_input = { file_path: filePath, content };
  payload.tool_response = { ...(payload.tool_response as object), filePath, content };
  return payload;
}

export const cases: HookCases = {
  hook: "memory-guard",
  cases: [
    {
      name: "fast",
      everyPrompt: true,
      what:
        "PostToolUse of a Write to a project file: Claude Code 2.1.332 does not start it (the registration's " +
        "`if`); a host that ignores `if` does, and it finds nothing to check",
      payload: (context) => wrote(context, join(context.projectDir, "src/app.ts")),
      expect: null,
    },
    {
      name: "active",
      what: "PostToolUse of a Write to MEMORY.md at 170 of 200 lines: warns before Claude Code drops lines",
      payload: (context) => wrote(context, memoryIndexPath(context)),
      setup: (context) => {
        const path = memoryIndexPath(context);
        mkdirSync(join(path, ".."), { recursive: true });
        writeFileSync(
          path,
          Array.from({ length: 170 }, (_, i) => `- [note ${i}] something learned in session ${i}`).join("\n"),
        );
      },
      expect: "MEMORY.md is at 85%",
    },
    {
      name: "SessionStart",
      what: "SessionStart(startup), MEMORY.md at 20 lines: measures it, nothing to say",
      payload: (context) => context.captured("session-start.startup.interactive"),
      setup: (context) => {
        const path = memoryIndexPath(context);
        mkdirSync(join(path, ".."), { recursive: true });
        writeFileSync(path, Array.from({ length: 20 }, (_, i) => `- [note ${i}] something learned`).join("\n"));
      },
      expect: null,
    },
  ],
};
