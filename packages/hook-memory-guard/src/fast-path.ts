import { type FastPathContext, fastPathConfig, isAutoMemoryEnabled } from "@carryover/core";
import { checkMemoryIndex } from "./memory-index.ts";
import { isMemoryIndexWrite } from "./target.ts";

/** Nothing to say: a write to another file, auto-memory off, or MEMORY.md missing or below the headroom. */
export function nothingToSay({ payload, env, projectDir }: FastPathContext): boolean {
  if (payload.hook_event_name === "PostToolUse" && !isMemoryIndexWrite(payload, env)) return true;
  if (typeof payload.cwd !== "string" || !isAutoMemoryEnabled(env, projectDir)) return true;
  const config = fastPathConfig("memory-guard", env, projectDir);
  if (!config) return false;
  try {
    return !checkMemoryIndex(env, payload.cwd, config.hook.headroomPercent)?.warn;
  } catch {
    // A symlinked MEMORY.md: the full path logs why it is not read.
    return false;
  }
}
