import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The nearest ancestor of `dir` holding `.git` (a directory or a worktree's file), or null. */
export function findGitRoot(dir: string): string | null {
  let current = resolve(dir);
  for (;;) {
    try {
      statSync(join(current, ".git"));
      return current;
    } catch {
      const parent = dirname(current);
      if (parent === current) return null;
      current = parent;
    }
  }
}
