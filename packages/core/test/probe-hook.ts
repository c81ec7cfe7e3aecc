// A hook for the runtime tests, run through `main` like every shipped hook. What it does is chosen by the
// prompt it gets; PROBE_LAZY=1 wraps it in a LazyHook whose fast path skips the prompt "skip".
import { type HookContext, type HookDefinition, type LazyHook, main } from "../src/runtime.ts";
import { statusLineInput, userPromptSubmitInput } from "../src/schemas.ts";

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
  skip: ({ payload }) => payload.prompt === "skip",
  load: async () => definition,
};

main(process.env.PROBE_LAZY ? lazy : definition);
