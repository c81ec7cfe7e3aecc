import { join } from "node:path";
import type { Env } from "./env.ts";
import { carryoverRoot } from "./paths.ts";

/** The project's pinned context: `<project>/.claude/carryover/pinned.md`. */
export function projectPinnedPath(projectDir: string): string {
  return join(projectDir, ".claude", "carryover", "pinned.md");
}

/** The user's pinned context for every project: `~/.claude/carryover/pinned.md`. */
export function userPinnedPath(env: Env): string {
  return join(carryoverRoot(env), "pinned.md");
}
