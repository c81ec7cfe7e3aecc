// UserPromptSubmit, and SessionStart with matcher `compact`: re-injects what the user pinned in the project's
// and the user's pinned.md, every turn (or every N) and always right after a compaction.
import { lstatSync } from "node:fs";
import type { HookDefinition } from "@carryover/core";
import type { keys } from "./config.ts";
import { pinnedPaths } from "./pinned.ts";

type PinEvent = "UserPromptSubmit" | "SessionStart";

/**
 * The prompt's probe in sh, run by the executable's prelude before Node starts (packages/build): neither
 * pinned.md has bytes. A link, or anything with a size (a dir too), goes on to Node, which tells them apart.
 * @public read by name by packages/build (src/launch.mjs), which runs this file's bundle.
 */
export const shFastPath = {
  UserPromptSubmit: [
    "a=$project/.claude/carryover/pinned.md; b=$carryover/pinned.md",
    '[ -L "$a" ] || [ -s "$a" ] || [ -L "$b" ] || [ -s "$b" ] || exit 0',
  ].join("\n"),
};

export const hook: HookDefinition<PinEvent, typeof keys, string[]> = {
  name: "pin",
  config: () => import("./config.ts"),
  events: ["UserPromptSubmit", "SessionStart"],

  /** The pinned files that have bytes (one lstat each); null for none, or a SessionStart other than compact. */
  probe({ payload, env, projectDir }) {
    if (payload.hook_event_name === "SessionStart" && payload.source !== "compact") return null;
    const paths = pinnedPaths(projectDir, env).filter(hasBytes);
    return paths.length > 0 ? paths : null;
  },

  async run({ input, config, session, log }, paths) {
    const deps = await import("./deps.ts");
    const { everyTurns, maxBytes } = config.hook;
    const { pins, problems } = deps.readPinned(paths, maxBytes);
    for (const problem of problems) log(problem);
    const problemMessage = problems.length > 0 ? `carryover pin: ${problems.join("; ")}` : undefined;
    if (pins.length === 0) return deps.contextOutput(input.hook_event_name, { systemMessage: problemMessage });

    const context = deps.pinnedContext(pins, maxBytes);
    // With everyTurns 1 nothing needs counting: no state file, no dir.
    if (everyTurns > 1) {
      const digest = deps.digestOf(context);
      if (input.hook_event_name === "SessionStart") deps.recordInjection(session, digest);
      else if (!deps.takePromptTurn(session, everyTurns, digest)) {
        return deps.contextOutput(input.hook_event_name, { systemMessage: problemMessage });
      }
    }
    const systemMessage = [deps.capWarning(pins, maxBytes), problemMessage].filter(Boolean).join("\n") || undefined;
    return deps.contextOutput(input.hook_event_name, { additionalContext: context, systemMessage });
  },
};

// lstat: a symlinked pin goes on to run, which refuses it with a warning; so does anything odd.
function hasBytes(path: string): boolean {
  try {
    return (lstatSync(path, { throwIfNoEntry: false })?.size ?? 0) > 0;
  } catch {
    return true;
  }
}
