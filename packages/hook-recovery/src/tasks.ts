import { join } from "node:path";
import { dirNames, readJsonNoFollow } from "@carryover/core";

export interface TaskListFacts {
  dir: string;
  total: number;
  /** Tasks per status ("pending", "in_progress", "completed"), in first-seen order. */
  byStatus: Record<string, number>;
}

const MAX_TASK_FILES = 1_000;

/** Counts the Task tools' list in `~/.claude/tasks/<session_id>/` (`<id>.json` each); null when there is none. */
export function readTaskList(dir: string): TaskListFacts | null {
  const names = dirNames(dir)
    .filter((name) => name.endsWith(".json"))
    .slice(0, MAX_TASK_FILES);
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const name of names) {
    const status = (readJsonNoFollow(join(dir, name)) as { status?: unknown } | null)?.status;
    if (typeof status !== "string" || status === "deleted") continue;
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    total += 1;
  }
  return total > 0 ? { dir, total, byStatus } : null;
}
