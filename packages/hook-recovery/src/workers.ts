import { type CompactionWorkers, paneLines, type TmuxWindow, type Worker, workerLine } from "@carryover/core";

/**
 * What the recovery context says of the workers: the facts, and how to check on each before starting it again.
 * It runs at SessionStart(compact), or at a later prompt when that did not deliver: the states are the transcript's
 * at that moment, so no line says whether a worker ended before the compaction or after it.
 */
export function workerLines(
  workers: CompactionWorkers,
  window: TmuxWindow | null,
  previousCompactionAtMs: number | null,
): string[] {
  const { live, ended, omitted } = workers;
  const others = window?.panes.filter((pane) => !pane.self) ?? [];
  if (live.length === 0 && ended.length === 0 && others.length === 0) return [];
  const lines = [
    "Workers this session started, as the transcript has them now: facts to check before starting the same work again.",
  ];
  if (live.length > 0)
    lines.push("- Still at work:", ...live.map((worker) => `  - ${workerLine(worker)}${howToCheck(worker)}`));
  if (ended.length > 0) {
    const heading = previousCompactionAtMs === null ? "- Ended:" : "- Ended since the previous compaction:";
    lines.push(heading, ...ended.map((worker) => `  - ${workerLine(worker)}${howToCheck(worker)}`));
  }
  if (omitted > 0) lines.push(`  - … ${omitted} more in the transcript`);
  if (window && others.length > 0) {
    lines.push(
      `- tmux window ${window.windowId} “${window.windowName}” ` +
        "(`tmux capture-pane -p -t <pane>` shows what a pane shows):",
      ...paneLines(window).map((line) => `  - ${line}`),
    );
  }
  return lines;
}

function howToCheck(worker: Worker): string {
  const check = checkOf(worker);
  return check ? ` (${check})` : "";
}

function checkOf(worker: Worker): string {
  if (worker.kind === "cron") return worker.state === "scheduled" ? "CronList lists it, CronDelete cancels it" : "";
  if (worker.state === "running") {
    if (worker.kind !== "agent") return `that file has its output so far; TaskStop with task_id ${worker.id} stops it`;
    return worker.background ? "Claude Code notifies when it finishes; SendMessage to its id reaches it" : "";
  }
  if (worker.state === "stopped") return "whether its command still runs outside Claude Code, ps tells";
  if (worker.state === "unknown") return "whether it did its work, the transcript tells";
  return worker.kind === "agent" ? "its result is in that transcript" : "that file has what it printed";
}
