import type { Env } from "../env.ts";
import { isPathText } from "./_path-text.ts";

/** The first of the payload's path fields too long to be a path (refused before any path work), else undefined. */
export function oversizedPathField(payload: Readonly<Record<string, unknown>>): "cwd" | "transcript_path" | undefined {
  return (["cwd", "transcript_path"] as const).find((key) => typeof payload[key] === "string" && !isPathText(payload[key]));
}

/** The project root a hook works in: `CLAUDE_PROJECT_DIR`, else the payload's cwd, else the process's. */
export function projectDirOf(env: Env, payload: Readonly<Record<string, unknown>>): string {
  return env.CLAUDE_PROJECT_DIR || (typeof payload.cwd === "string" ? payload.cwd : "") || process.cwd();
}
