import { statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { readFileNoFollow } from "./atomic.ts";

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

/**
 * The repository a dir belongs to, a linked worktree's main repository for it: the parent of the git dir all its
 * worktrees share (a worktree's `.git` file names its own git dir, whose `commondir` names the shared one). The git
 * root itself for a repository, a submodule or a bare repository's worktree; null outside any repository.
 */
export function repositoryRoot(dir: string): string | null {
  const root = findGitRoot(dir);
  if (root === null) return null;
  const gitFile = readSmall(join(root, ".git"));
  const gitDir = /^gitdir: *(.+?)\s*$/m.exec(gitFile ?? "")?.[1];
  if (gitDir === undefined) return root;
  const ownGitDir = resolve(root, gitDir);
  const commonDir = readSmall(join(ownGitDir, "commondir"))?.trim();
  if (!commonDir) return root;
  const shared = resolve(ownGitDir, commonDir);
  return basename(shared) === ".git" ? dirname(shared) : root;
}

// A .git that is a directory, or missing, reads as null.
function readSmall(path: string): string | null {
  try {
    return readFileNoFollow(path);
  } catch {
    return null;
  }
}
