// A hook for the runtime tests, run through `main` like every shipped hook. What it does is chosen by the
// prompt it gets; its probe finds nothing to do for the prompts "skip…", and hands run what it saw otherwise.
import { probeConfig } from "../src/config/load.ts";
import type { ConfigTable } from "../src/config/table.ts";
import type { HookContext, HookDefinition } from "../src/runtime/definition.ts";
import { main } from "../src/runtime/main.ts";

/** The probe hook's keys, in section "pin". */
const keys = {
  everyTurns: { kind: "number", default: 1, min: 1, max: 1000, description: "a number" },
  maxBytes: { kind: "number", default: 8000, min: 100, max: 9000, description: "another number" },
} as const satisfies ConfigTable;

async function run({ input, config, projectDir, log }: HookContext<"UserPromptSubmit", typeof keys>, found: string) {
  switch (input.prompt) {
    case "json":
      return {
        hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "context ✓" },
        systemMessage: "shown",
      };
    case "text":
      return "plain text\nsecond line";
    case "throw":
      throw new Error("probe failure");
    case "config":
    case "config-in-probe":
      return JSON.stringify({ hook: config.hook, projectDir });
    case "found":
      return `the probe saw ${found}`;
    case "log":
      log("note from run");
      return null;
    case "async":
      await new Promise((resolve) => setTimeout(resolve, 10));
      return "after a wait";
    default:
      return null;
  }
}

const hook: HookDefinition<"UserPromptSubmit", typeof keys, string> = {
  name: "pin",
  events: ["UserPromptSubmit"],
  config: async () => ({ keys }),
  probe: (context) => {
    const prompt = context.payload.prompt;
    if (prompt === "skip-throws") throw new Error("probe skip failure");
    if (prompt === "skip-with-config") probeConfig(context, keys);
    if (prompt === "config-in-probe") probeConfig(context, keys);
    return typeof prompt === "string" && prompt.startsWith("skip") ? null : `"${String(prompt)}"`;
  },
  run,
};

main(hook);
