import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readFileNoFollow } from "@carryover/core";

export interface TaskListFacts {
  dir: string;
  total: number;
  /** Tasks per status ("pending", "in_progress", "completed"), in first-seen order. */
  byStatus: Record<string, number>;
}

const MAX_TASK_FILES = 1_000;

/** Counts the Task tools' list in `~/.claude/tasks/<session_id>/` (`<id>.json` each); null when there is none. */
export function readTaskList(dir: string): TaskListFacts | null {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .slice(0, MAX_TASK_FILES);
  } catch {
    return null;
  }
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const name of names) {
    let status: unknown;
    try {
      status = (JSON.parse(readFileNoFollow(join(dir, name)) ?? "null") as { status?: unknown } | null)?.status;
    } catch {
      continue;
    }
    if (typeof status !== "string" || status === "deleted") continue;
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    total += 1;
  }
  return total > 0 ? { dir, total, byStatus } : null;
}
