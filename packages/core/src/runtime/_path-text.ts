// Linux's PATH_MAX. A longer cwd or transcript_path is not a path, and every path function is linear in its
// input: a 10 MB cwd cost a PreCompact about a second (measured), several on a loaded machine.
export const MAX_PATH_CHARS = 4096;

/** A string short enough to be a path: what a payload's cwd, transcript_path or project_dir must be. */
export function isPathText(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_PATH_CHARS;
}
