import { checkMemoryIndex, type FastPathContext, isAutoMemoryEnabled } from "@carryover/core";
import { isMemoryIndexWrite } from "./target.ts";

/** Nothing to say: a write to another file, auto-memory off, or MEMORY.md missing or below the headroom. */
export function nothingToSay({ payload, env, config, projectDir }: FastPathContext<"memory-guard">): boolean {
  if (payload.hook_event_name === "PostToolUse" && !isMemoryIndexWrite(payload, env)) return true;
  if (typeof payload.cwd !== "string" || !isAutoMemoryEnabled(env, projectDir)) return true;
  try {
    return !checkMemoryIndex(env, payload.cwd, config.hook.headroomPercent)?.warn;
  } catch {
    // A symlinked MEMORY.md: the full path logs why it is not read.
    return false;
  }
}
