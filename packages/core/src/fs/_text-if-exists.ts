import { existsSync, readFileSync } from "node:fs";

/**
 * A file's text, or null when it is missing or unreadable. Existence is asked first: most of these files
 * (config, project settings) are missing on most runs, and a failed read costs an exception, existsSync
 * none.
 */
export function readTextIfExists(path: string): string | null {
  if (!existsSync(path)) return null;
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
