// SessionStart (startup|resume|compact) and PostToolUse (Write|Edit|MultiEdit of MEMORY.md): warns the user, before
// Claude Code starts dropping lines, how close MEMORY.md is to what it loads, and names the lines it drops.
import { join, resolve } from "node:path";
import type { HookDefinition } from "@carryover/core";
import { keys } from "./config.ts";

type Event = "SessionStart" | "PostToolUse";

/** What may concern MEMORY.md: a session's start, or a write to a file of that name (resolved). */
interface Concern {
  written: string | null;
}

export const hook: HookDefinition<Event, typeof keys, Concern> = {
  name: "memory-guard",
  events: ["SessionStart", "PostToolUse"],
  config: async () => ({ keys }),

  // Claude Code 2.1.332 tests each handler's `if` (package.json: `Write(//**/MEMORY.md)`, `Edit(//**/MEMORY.md)`;
  // neither rule covers the other tool, unlike permission rules; it has no MultiEdit tool) and starts the hook
  // only for a file named MEMORY.md, wherever it is. A host that ignores `if` starts it after every write: then
  // this is the whole hook, so where the memory dir is, the settings and the config are left to run (deferred
  // code, compiled only then).
  /** Null for a write to a file not named MEMORY.md. */
  probe({ payload }) {
    const written = payload.hook_event_name === "PostToolUse" ? writtenPath(payload) : null;
    return typeof payload.cwd !== "string" || written === "" ? null : { written };
  },

  // For the user only: after a write, Claude Code 2.1.332 already tells the agent itself ("The memory index at
  // MEMORY.md is 170 lines, approaching the 200-line read limit. Compact it…"); the user is told nothing.
  /** Null for a write to another MEMORY.md, auto-memory off, or no need to warn. */
  async run({ event, input, env, projectDir, config }, { written }) {
    const { autoMemoryDir, checkMemoryIndex, contextOutput, isAutoMemoryEnabled, memoryIndexWarning } = await import(
      "./deps.ts"
    );
    const index = join(autoMemoryDir(env, input.cwd), "MEMORY.md");
    if ((written !== null && written !== index) || !isAutoMemoryEnabled(env, projectDir)) return null;
    const check = checkMemoryIndex(index, config.hook.headroomPercent);
    return check?.warn ? contextOutput(event, { systemMessage: memoryIndexWarning(check) }) : null;
  },
};

/** The file a Write, Edit or MultiEdit wrote, resolved; "" when it cannot be the MEMORY.md Claude Code loads. */
function writtenPath(payload: Readonly<Record<string, unknown>>): string {
  const filePath = (payload.tool_input as { file_path?: unknown } | undefined)?.file_path;
  if (typeof filePath !== "string" || !filePath.endsWith("MEMORY.md") || typeof payload.cwd !== "string") return "";
  return resolve(payload.cwd, filePath);
}
