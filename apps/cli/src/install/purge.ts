import { lstatSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  carryoverRoot,
  compactStateCompanions,
  compactStatePath,
  type Env,
  isSafeSessionId,
  loadConfig,
  projectConfigPath,
} from "@carryover/core";
import type { Change } from "./changes.ts";
import { installRecordPath } from "./record.ts";

/** What `uninstall --purge` removes besides the install: carryover's own data, and what stays behind. */
interface Purge {
  changes: Change[];
  /** After the install record's removal: carryover's dir, now empty. */
  last: Change[];
  /** Paths whose changes the purge makes moot (removed anyway), for what uninstall reports. */
  covers(path: string): boolean;
  /** Files removed, by where they were. */
  counts: Array<{ where: string; files: number }>;
}

/** Every file under `dir` as a removal, then the dirs, deepest first; a symlink is removed, never followed. */
function removeTree(dir: string, skip: ReadonlySet<string>): Change[] {
  const files: Change[] = [];
  const dirs: Change[] = [];
  const walk = (at: string) => {
    let names: string[];
    try {
      names = readdirSync(at);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(at, name);
      if (skip.has(path)) continue;
      if (lstatSync(path).isDirectory()) walk(path);
      else files.push({ kind: "remove", path });
    }
    dirs.push({ kind: "rmdir", path: at });
  };
  walk(dir);
  return [...files, ...dirs];
}

/**
 * carryover's data in `~/.claude/carryover` (sessions, log, backups, config, the install record) and the
 * compact-prep state files of the sessions it knows (only ours: a shared /tmp holds other users' too), and this
 * project's `.claude/carryover/config.json`. The record itself goes with the record change, not here.
 */
export function planPurge(env: Env, projectDir: string): Purge {
  const root = carryoverRoot(env);
  const { shared } = loadConfig("", {}, env, projectDir);
  const uid = process.getuid?.();
  const stateFiles: Change[] = [];
  let sessions: string[] = [];
  try {
    sessions = readdirSync(join(root, "sessions")).filter(isSafeSessionId);
  } catch {
    // no sessions yet
  }
  for (const id of sessions) {
    const state = compactStatePath(env, id, shared.stateDir || undefined);
    const { backup, stamp } = compactStateCompanions(state);
    for (const path of [state, backup, stamp]) {
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat?.isFile() && (uid === undefined || stat.uid === uid)) stateFiles.push({ kind: "remove", path });
    }
  }
  const own = removeTree(root, new Set([installRecordPath(env)]));
  const project = projectConfigPath(projectDir);
  // The project's .claude/ too once that empties it: `carryover config --scope project` may have made it.
  const projectFiles: Change[] = lstatSync(project, { throwIfNoEntry: false })
    ? [
        { kind: "remove", path: project },
        { kind: "rmdir", path: dirname(project) },
        { kind: "rmdir", path: dirname(dirname(project)) },
      ]
    : [];
  const stateDir = stateFiles[0] ? dirname((stateFiles[0] as { path: string }).path) : null;
  const count = (changes: Change[]) => changes.filter((change) => change.kind === "remove").length;
  return {
    changes: [
      ...stateFiles,
      ...(stateDir ? [{ kind: "rmdir" as const, path: stateDir }] : []),
      ...own,
      ...projectFiles,
    ],
    last: [{ kind: "rmdir", path: root }],
    covers: (path) => path === project || path.startsWith(`${root}/`),
    counts: [
      { where: root, files: count(own) },
      ...(stateDir ? [{ where: stateDir, files: count(stateFiles) }] : []),
      ...(projectFiles.length > 0 ? [{ where: project, files: 1 }] : []),
    ].filter((count) => count.files > 0),
  };
}

/** What `--purge` leaves, so the user knows where carryover's traces remain. */
export const PURGE_KEEPS = [
  "kept in your projects: pre-compact's CHANGES_SESSION.md changes logs, and its dated entries in the auto-memory",
  "under ~/.claude/projects/*/memory (Claude Code's own; delete them there if you want them gone), and other",
  "projects' .claude/carryover/config.json (run uninstall --purge --project DIR there)",
].join("\n");
