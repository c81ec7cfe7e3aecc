import { isAbsolute, relative } from "node:path";
import { count, tokensOrUnknown } from "./format.ts";
import type { WorkRecord } from "./model.ts";
import type { Paint } from "./paint.ts";

const FIELD_WIDTH = 17;
const NAMED = 4;

function sinceCompaction(since: Exclude<WorkRecord["since"], "start">): string {
  const line = since.line === null ? "" : `line ${since.line}, `;
  const tokens = `${tokensOrUnknown(since.preTokens)} → ${tokensOrUnknown(since.postTokens)} tokens`;
  return `Work since the last compaction (${line}${since.trigger}, ${tokens})`;
}

/** What the session did since its last compaction, in a few lines (`--json` has every entry). */
export function workLines(work: WorkRecord, cwd: string | null, style: Paint, columns: number): string[] {
  const since = work.since === "start" ? "Work this session (no compaction)" : sinceCompaction(work.since);
  const field = (name: string, text: string) => `  ${name.padEnd(FIELD_WIDTH - 2)}${fit(text, columns - FIELD_WIDTH)}`;
  const lines = [style.bold(since)];
  lines.push(
    field("Last request", work.lastRequest === null ? "none found" : `“${work.lastRequest.replace(/\s+/g, " ")}”`),
  );
  const files = [...work.filesChanged].sort((a, b) => b.count - a.count);
  const shown = files
    .slice(0, NAMED)
    .map((file) => `${shownPath(file.path, cwd)}${file.count > 1 ? ` ×${file.count}` : ""}`);
  lines.push(
    field(
      "Files changed",
      files.length === 0 ? "none" : `${files.length}: ${shown.join(", ")}${files.length > NAMED ? ", …" : ""}`,
    ),
  );
  const runs = work.commands.reduce((sum, command) => sum + command.runs, 0);
  const failures = work.commands.reduce((sum, command) => sum + command.failures, 0);
  lines.push(
    field(
      "Commands",
      work.commands.length === 0
        ? "none"
        : `${count(work.commands.length)} distinct, ${count(runs)} runs, ${count(failures)} failed`,
    ),
  );
  const open = work.errors.filter((error) => !error.resolved);
  const named = open
    .slice(0, 2)
    .map(
      (error) =>
        `${error.tool} ${error.target.split("\n")[0]}: ${error.message.split("\n").find((line) => line.trim()) ?? ""}`,
    );
  lines.push(
    field(
      "Errors",
      work.errors.length === 0
        ? "none"
        : `${work.errors.length}, ${work.errors.length - open.length} fixed` +
            `${open.length > 0 ? `; unresolved: ${named.join("; ")}` : ""}`,
    ),
  );
  const progress = [
    list(
      "todos",
      work.todos.map((todo) => todo.status),
    ),
    list(
      "tasks",
      work.tasks.map((task) => task.status),
    ),
  ].filter(Boolean);
  if (progress.length > 0) lines.push(field("Progress", progress.join("; ")));
  if (work.workers.length > 0) lines.push(field("Workers", workersText(work.workers)));
  return lines;
}

/** "2 at work: shell b1 “dev server”, agent a9 “research”; 1 ended". */
function workersText(workers: WorkRecord["workers"]): string {
  const live = workers.filter((worker) => worker.state === "running" || worker.state === "scheduled");
  const named = live
    .slice(0, NAMED)
    .map((worker) => `${worker.kind} ${worker.id}${worker.description ? ` “${worker.description}”` : ""}`);
  const ended = workers.length - live.length;
  const parts = [
    live.length > 0 ? `${live.length} at work: ${named.join(", ")}${live.length > NAMED ? ", …" : ""}` : "",
    ended > 0 ? `${ended} ended` : "",
  ];
  return parts.filter(Boolean).join("; ");
}

function list(name: string, statuses: readonly string[]): string {
  if (statuses.length === 0) return "";
  return `${statuses.filter((status) => status === "completed").length} of ${statuses.length} ${name} done`;
}

function shownPath(path: string, cwd: string | null): string {
  if (!cwd) return path;
  const inside = relative(cwd, path);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
}
