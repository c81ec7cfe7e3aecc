// SessionStart (startup|resume|compact) and PostToolUse (Write|Edit|MultiEdit of MEMORY.md): warns, before
// Claude Code starts dropping lines, how close MEMORY.md is to what it loads, and names the lines it drops.
import {
  contextOutput,
  type HookContext,
  type HookDefinition,
  type HookJsonOutput,
  isAutoMemoryEnabled,
  postToolUseInput,
  sessionStartInput,
} from "@carryover/core";
import { checkMemoryIndex, memoryIndexWarning } from "./memory-index.ts";
import { isMemoryIndexWrite } from "./target.ts";

type Event = "SessionStart" | "PostToolUse";

export function run({ input, event, env, config, projectDir }: HookContext<Event, "memory-guard">): HookJsonOutput | null {
  if (event === "PostToolUse" && !isMemoryIndexWrite(input, env)) return null;
  if (!isAutoMemoryEnabled(env, projectDir)) return null;
  const check = checkMemoryIndex(env, input.cwd, config.hook.headroomPercent);
  if (!check?.warn) return null;
  // For the user only: after a write, Claude Code 2.1.332 already tells the agent itself ("The memory index at
  // MEMORY.md is 170 lines, approaching the 200-line read limit. Compact it…"); the user is told nothing.
  return contextOutput(event, { systemMessage: memoryIndexWarning(check) });
}

export const memoryGuardHook: HookDefinition<Event, "memory-guard"> = {
  name: "memory-guard",
  inputs: { SessionStart: sessionStartInput, PostToolUse: postToolUseInput },
  run,
};
