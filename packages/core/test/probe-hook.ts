// A hook for the runtime tests, run through `main` like every shipped hook. What it does is chosen by the
// prompt it gets; PROBE_LAZY=1 gives it a fast path (`skip`) that skips the prompt "skip".
import { fastPathConfig } from "../src/config/load.ts";
import { main } from "../src/runtime/main.ts";
import type { HookContext, HookDefinition, LazyHook } from "../src/runtime/run-hook.ts";
import { statusLineInput, userPromptSubmitInput } from "../src/schema/payloads.ts";

type Event = "UserPromptSubmit" | "StatusLine";

async function run({ input, event, config, projectDir, log }: HookContext<Event, "pin">) {
  if (event === "StatusLine") return `status ${input.session_id}`;
  switch ((input as HookContext<"UserPromptSubmit", "pin">["input"]).prompt) {
    case "json":
      return { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "context ✓" }, systemMessage: "shown" };
    case "text":
      return "plain text\nsecond line";
    case "throw":
      throw new Error("probe failure");
    case "config":
      return JSON.stringify({ hook: config.hook, projectDir });
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

const definition: HookDefinition<Event, "pin"> = {
  name: "pin",
  inputs: { UserPromptSubmit: userPromptSubmitInput, StatusLine: statusLineInput },
  run,
};

const lazy: LazyHook<"pin"> = {
  name: "pin",
  skip: ({ payload, env, projectDir }) => {
    if (payload.prompt === "skip-throws") throw new Error("probe skip failure");
    if (payload.prompt === "skip-with-config") return fastPathConfig("pin", env, projectDir) !== null;
    return payload.prompt === "skip";
  },
  load: async () => definition,
};

main(process.env.PROBE_LAZY ? lazy : { name: "pin", load: async () => definition });
