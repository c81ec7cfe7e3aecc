import { type BigIntStats, lstatSync, readdirSync, readlinkSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { defaultStateDir } from "../../packages/core/src/index.ts";
import type { Sandbox } from "./sandbox.ts";

/** One entry as lstat sees it: enough to tell a file was created, rewritten, replaced or removed. */
interface Entry {
  kind: "file" | "dir" | "symlink" | "other";
  size: number;
  mtimeNs: bigint;
  ino: bigint;
  link?: string;
}

export type Tree = Map<string, Entry>;

export interface TreeChange {
  path: string;
  change: "added" | "modified" | "removed";
}

/** Every entry under `root`, by absolute path; symlinks are recorded, never followed. */
export function snapshotTree(root: string): Tree {
  const tree: Tree = new Map();
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      let stat: BigIntStats;
      try {
        stat = lstatSync(path, { bigint: true });
      } catch {
        continue;
      }
      const kind = stat.isSymbolicLink() ? "symlink" : stat.isDirectory() ? "dir" : stat.isFile() ? "file" : "other";
      tree.set(path, {
        kind,
        size: Number(stat.size),
        mtimeNs: stat.mtimeNs,
        ino: stat.ino,
        ...(kind === "symlink" ? { link: readlinkSync(path) } : {}),
      });
      if (kind === "dir") walk(path);
    }
  };
  walk(root);
  return tree;
}

/** What changed between two snapshots; a directory only changes by appearing or disappearing. */
export function diffTrees(before: Tree, after: Tree): TreeChange[] {
  const changes: TreeChange[] = [];
  for (const [path, entry] of after) {
    const old = before.get(path);
    if (!old) changes.push({ path, change: "added" });
    else if (entry.kind !== old.kind || entry.link !== old.link) changes.push({ path, change: "modified" });
    else if (
      entry.kind !== "dir" &&
      (entry.size !== old.size || entry.mtimeNs !== old.mtimeNs || entry.ino !== old.ino)
    ) {
      changes.push({ path, change: "modified" });
    }
  }
  for (const path of before.keys()) if (!after.has(path)) changes.push({ path, change: "removed" });
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * carryover's own places, and nothing else: its root (config, log, sessions, bin), the compact-prep state
 * dir, the project's changes log, and the auto-memory files the pre-compact hook files (MEMORY.md and its
 * `carryover-session-*.md` topic files and the `carryover-sessions.md` list), with the directories that lead to them.
 */
function isCarryoverPath(path: string, sandbox: Sandbox): boolean {
  const under = (dir: string) => path === dir || path.startsWith(dir + sep);
  const claude = join(sandbox.home, ".claude");
  // The compact-prep state dir, in Claude Code's per-user temp dir: the dirs on the way there are made too.
  const stateDir = defaultStateDir(sandbox.env);
  if (under(join(claude, "carryover")) || under(stateDir) || stateDir.startsWith(path + sep)) return true;
  if (path === join(sandbox.project, "CHANGES_SESSION.md")) return true;
  const projects = join(claude, "projects");
  // Where the log goes when carryover's root is refused.
  if (path === claude || path === projects || path === join(claude, "carryover.log")) return true;
  if (!path.startsWith(projects + sep)) return false;
  const [, memory, file, ...deeper] = relative(projects, path).split(sep);
  if (memory === undefined) return true;
  if (memory !== "memory" || deeper.length > 0) return false;
  if (file === undefined || file === "MEMORY.md" || file === "carryover-sessions.md") return true;
  return /^carryover-session-[^/]+\.md$/.test(file);
}

/** Changes under the sandbox's HOME, TMPDIR and project that are not in carryover's own places. */
export function changesOutsideCarryover(before: Tree, after: Tree, sandbox: Sandbox): TreeChange[] {
  return diffTrees(before, after).filter((change) => !isCarryoverPath(change.path, sandbox));
}
