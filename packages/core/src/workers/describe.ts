import type { Worker, WorkerState } from "../transcript/facts.ts";
import type { TmuxWindow } from "./panes.ts";

/** The workers a compaction concerns, as the transcript tells them just before it. */
export interface CompactionWorkers {
  /** Running, scheduled, or started with no result recorded: what may still be at work. */
  live: Worker[];
  /** Ended since the previous compaction (over the whole session when there was none), oldest first. */
  ended: Worker[];
  /** Left out to stay within the limits. */
  omitted: number;
}

const LIVE: ReadonlySet<WorkerState> = new Set(["running", "scheduled"]);
const MAX_LIVE = 20;
const MAX_ENDED = 12;
const MAX_COMMAND_CHARS = 160;
const MAX_DESCRIPTION_CHARS = 120;

/**
 * Splits the session's workers for a compaction: the live ones whenever they started, those that ended (or got
 * no result) since the previous compaction. A worker that ended before it was reported then and is left out now.
 */
export function compactionWorkers(
  workers: readonly Worker[],
  previousCompactionAtMs: number | null,
): CompactionWorkers {
  const since = (atMs: number | null) =>
    previousCompactionAtMs === null || atMs === null || atMs > previousCompactionAtMs;
  const live = workers.filter((worker) => LIVE.has(worker.state));
  const ended = workers.filter((worker) => !LIVE.has(worker.state) && since(worker.endedAtMs ?? worker.startedAtMs));
  const kept = { live: live.slice(-MAX_LIVE), ended: ended.slice(-MAX_ENDED) };
  return { ...kept, omitted: live.length - kept.live.length + ended.length - kept.ended.length };
}

/**
 * One line per worker: what it is, its id, what it was for, where it stands and where its output is.
 * `show` renders paths (relative to the project, say).
 */
export function workerLine(worker: Worker, show: (path: string) => string = (path) => path): string {
  const type = worker.agentType ? ` (${worker.agentType})` : "";
  const description = worker.description ? ` “${clip(worker.description, MAX_DESCRIPTION_CHARS)}”` : "";
  const command = worker.command ? `: ${code(clip(worker.command, MAX_COMMAND_CHARS))}` : "";
  const place = where(worker, show);
  return (
    `${worker.kind} ${code(worker.id)}${type}${description}${command} — ` +
    `${stateText(worker)}${place ? `; ${place}` : ""}`
  );
}

function stateText(worker: Worker): string {
  const exit = /exit code (\d+)/.exec(worker.detail ?? "")?.[1];
  switch (worker.state) {
    case "running":
      return worker.kind === "agent" && !worker.background ? "running (its call has not returned)" : "running";
    case "completed":
      return exit === undefined ? "completed" : `completed (exit code ${exit})`;
    case "failed":
      return exit === undefined ? "failed" : `failed (exit code ${exit})`;
    case "killed":
      return "stopped before it finished (killed)";
    case "stopped":
      return "no longer tracked: its Claude Code process ended before it finished";
    case "unknown":
      return "no result recorded (the call was cut off)";
    case "scheduled":
      return "scheduled";
    case "deleted":
      return "deleted";
    case "ended":
      return "no longer scheduled";
  }
}

function where(worker: Worker, show: (path: string) => string): string {
  if (worker.kind === "agent") {
    const file = worker.transcript ?? worker.outputFile;
    return file ? `transcript: ${show(file)}` : "";
  }
  return worker.outputFile ? `output: ${show(worker.outputFile)}` : "";
}

/** The tmux window's panes, one line each, the session's own first. */
export function paneLines(window: TmuxWindow, show: (path: string) => string = (path) => path): string[] {
  const panes = [...window.panes].sort((a, b) => Number(b.self) - Number(a.self) || a.index - b.index);
  return panes.map((pane) => {
    const title = pane.title ? ` “${clip(pane.title, MAX_DESCRIPTION_CHARS)}”` : "";
    const self = pane.self ? " (this Claude Code session)" : "";
    return `pane ${code(pane.id)}${title}${self} — running ${code(pane.command)} in ${show(pane.path)}`;
  });
}

/** Markdown inline code that survives backticks in the text. */
function code(text: string): string {
  return text.includes("`") ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function clip(text: string, maxChars: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}
