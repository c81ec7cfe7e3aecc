// SessionStart (startup|resume|compact) and PostToolUse (Write|Edit|MultiEdit of MEMORY.md): warns the user, before
// Claude Code starts dropping lines, how close MEMORY.md is to what it loads, and names the lines it drops.
import { join, resolve } from "node:path";
import { autoMemoryDir, type HookDefinition, isAutoMemoryEnabled, probeConfig } from "@carryover/core";
import { keys } from "./config.ts";
import { checkMemoryIndex, type MemoryIndexCheck } from "./memory-index.ts";

type Event = "SessionStart" | "PostToolUse";

export const hook: HookDefinition<Event, typeof keys, MemoryIndexCheck> = {
  name: "memory-guard",
  events: ["SessionStart", "PostToolUse"],
  config: async () => ({ keys }),

  /** The MEMORY.md check when it warns; null for a write to another file, auto-memory off, or no need to warn. */
  probe(context) {
    const { payload, env, projectDir } = context;
    const written = payload.hook_event_name === "PostToolUse" ? writtenPath(payload) : null;
    if (typeof payload.cwd !== "string" || written === "") return null;
    const index = join(autoMemoryDir(env, payload.cwd), "MEMORY.md");
    if (written !== null && written !== index) return null;
    if (!isAutoMemoryEnabled(env, projectDir)) return null;
    const check = checkMemoryIndex(index, probeConfig(context, keys).hook.headroomPercent);
    return check?.warn ? check : null;
  },

  // For the user only: after a write, Claude Code 2.1.332 already tells the agent itself ("The memory index at
  // MEMORY.md is 170 lines, approaching the 200-line read limit. Compact it…"); the user is told nothing.
  async run({ event }, check) {
    const { contextOutput, memoryIndexWarning } = await import("./deps.ts");
    return contextOutput(event, { systemMessage: memoryIndexWarning(check) });
  },
};

/** The file a Write, Edit or MultiEdit wrote, resolved; "" when it cannot be the MEMORY.md Claude Code loads. */
function writtenPath(payload: Readonly<Record<string, unknown>>): string {
  const filePath = (payload.tool_input as { file_path?: unknown } | undefined)?.file_path;
  if (typeof filePath !== "string" || !filePath.endsWith("MEMORY.md") || typeof payload.cwd !== "string") return "";
  return resolve(payload.cwd, filePath);
}
