import type { CompactState, StateOrder } from "@carryover/core";
import { capText, STATE_HEADERS, type TaskItem, type TodoItem } from "@carryover/core";
import type { RecoveryFacts } from "./facts.ts";
import { workerLines } from "./workers.ts";

/** The first words of every recovery context; also how a delivered one is recognised in the transcript. */
export const RECOVERY_HEADING = "carryover recovery";

const MAX_LIST_ITEMS = 20;
const MAX_ITEM_CHARS = 200;

/** The recovery context: facts and paths, no file contents (bar the TodoWrite list, which has no file). */
export function renderRecovery(facts: RecoveryFacts, maxChars: number): string {
  const lines = [
    `${RECOVERY_HEADING}: this conversation was compacted ${compactedWhen(facts)}. ` +
      "The summary of the earlier conversation was written by a model from the history: " +
      "its next steps are hypotheses, to be checked against the plan, the state file and the task list below " +
      "before acting on them.",
    ...planModeLines(facts),
    ...workerLines(facts.workers, facts.tmux, facts.previousCompactionAtMs),
    "What this session keeps on disk:",
    ...stateLines(facts),
    ...planLines(facts.plans),
    ...taskLines(facts),
    ...(facts.changesFile ? [`- Session changes log: ${facts.changesFile}`] : []),
    ...earlierSummaryLines(facts),
    ...todoLines(facts.todos),
  ];
  return capText(lines.join("\n"), maxChars);
}

function compactedWhen(facts: RecoveryFacts): string {
  const trigger = facts.trigger ? `, ${facts.trigger}` : "";
  return `at ${iso(facts.compactedAtMs)}${trigger}`;
}

function planModeLines({ planModeBefore, permissionModeNow }: RecoveryFacts): string[] {
  if (!planModeBefore) return [];
  if (permissionModeNow === undefined) {
    return [
      "Plan mode was on before this compaction: whether it still applies must be confirmed with the user " +
        "before any file is edited.",
    ];
  }
  if (permissionModeNow === "plan")
    return ["Plan mode was on before this compaction and is on now: leaving it must be confirmed with the user again."];
  return [
    `Plan mode was on before this compaction and is off now (${permissionModeNow}): ` +
      "re-entering it must be confirmed with the user before any file is edited.",
  ];
}

function stateLines(facts: RecoveryFacts): string[] {
  const { state, snapshot } = facts;
  const lines = state
    ? [stateLine(state, facts)]
    : [`- No compact-prep state was saved for this session (/compact-prep writes it to ${facts.statePath}).`];
  const stateHelps = state !== null && !state.unfilled && !isStale(state.savedAtMs, facts);
  if (snapshot && (!stateHelps || snapshotIsNewer(snapshot.savedAtMs, state!, facts))) {
    lines.push(
      `- Mechanical snapshot: ${snapshot.path}, written ${timing(snapshot.savedAtMs, facts)} ` +
        "by carryover's pre-compact hook from the transcript " +
        "(the state file's headers, filled without the agent's judgement).",
    );
  }
  return lines;
}

/**
 * Ordered by the count, a current state is older than the snapshot only when pre-compact wrote one all the same:
 * the state incomplete, or carryover's own. Else by the clock.
 */
function snapshotIsNewer(snapshotAtMs: number, state: CompactState, facts: RecoveryFacts): boolean {
  if (facts.stateOrder === null) return snapshotAtMs > state.savedAtMs;
  return !state.verification.ok || state.mechanical;
}

function stateLine(state: CompactState, facts: RecoveryFacts): string {
  const author = state.mechanical ? "written by carryover from the transcript" : "written through /compact-prep";
  const parts = [`- Compact-prep state: ${state.path}, ${author}, saved ${stateTiming(state.savedAtMs, facts)}.`];
  if (state.unfilled) parts.push("Every section in it is empty (an unfilled template).");
  else
    parts.push(
      "It records the active plan, the current phase, decisions (with the rejected options and why), " +
        "constraints, workers and files in progress.",
    );
  const { missing, outOfOrder } = state.verification;
  if (missing.length > 0) parts.push(`It lacks ${missing.join(", ")}.`);
  if (outOfOrder.length > 0)
    parts.push(`Out of order: ${outOfOrder.join(", ")} (expected order: ${STATE_HEADERS.join(", ")}).`);
  return parts.join(" ");
}

/** By the count when the state has one, else by the clock. */
function isStale(savedAtMs: number, facts: RecoveryFacts): boolean {
  return facts.stateOrder !== null ? facts.stateOrder === "before-previous" : predatesPrevious(savedAtMs, facts);
}

function predatesPrevious(savedAtMs: number, facts: RecoveryFacts): boolean {
  return facts.previousCompactionAtMs !== null && savedAtMs < facts.previousCompactionAtMs;
}

/** The state's save against the compactions: by their count when it has one, the clock's times as far as they agree. */
function stateTiming(savedAtMs: number, facts: RecoveryFacts): string {
  const order = facts.stateOrder;
  if (order === null || clockAgrees(order, savedAtMs, facts)) return timing(savedAtMs, facts);
  const at = iso(savedAtMs);
  const by = "by the compaction count (the clock disagrees: it was off at one of them)";
  if (order === "after") return `${at}, after this compaction ${by}`;
  if (order === "since-previous") return `${at}, after the previous compaction and before this one ${by}`;
  return (
    `${at}, before the previous compaction too ${by}: ` +
    "it predates the last compaction and may describe an earlier stage of the work"
  );
}

function clockAgrees(order: StateOrder, savedAtMs: number, facts: RecoveryFacts): boolean {
  if (order === "after") return savedAtMs > facts.compactedAtMs;
  if (savedAtMs > facts.compactedAtMs) return false;
  const previous = facts.previousCompactionAtMs;
  return order === "since-previous" ? previous === null || savedAtMs >= previous : predatesPrevious(savedAtMs, facts);
}

/** When a file was saved, relative to this compaction and the one before it, by the clock. */
function timing(savedAtMs: number, facts: RecoveryFacts): string {
  const at = iso(savedAtMs);
  if (savedAtMs > facts.compactedAtMs) return `${at}, after this compaction`;
  const before = `${at}, ${duration(facts.compactedAtMs - savedAtMs)} before this compaction`;
  if (facts.previousCompactionAtMs === null) return `${before} (no earlier compaction recorded)`;
  if (predatesPrevious(savedAtMs, facts)) {
    return (
      `${before} and before the previous one too (${iso(facts.previousCompactionAtMs)}): ` +
      "it predates the last compaction and may describe an earlier stage of the work"
    );
  }
  return `${before} and after the previous one (${iso(facts.previousCompactionAtMs)})`;
}

function earlierSummaryLines({ earlierSummaries: ledger, earlierInTranscript: transcript }: RecoveryFacts): string[] {
  const what = (count: number) =>
    count === 1 ? "The summary of the earlier compaction" : `Summaries of the ${count} earlier compactions`;
  if (ledger) return [`- ${what(ledger.count)}: ${ledger.path} (JSONL, oldest first)`];
  // Carryover came after them (installed mid-session, the ledger lost): the transcript still has them.
  if (transcript)
    return [
      `- ${what(transcript.count)}: in the transcript, ${transcript.path} ` +
        "(the user line marked isCompactSummary after each)",
    ];
  return [];
}

function planLines(plans: string[]): string[] {
  if (plans.length === 0) return [];
  if (plans.length === 1) return [`- Plan file this session wrote: ${plans[0]}`];
  return [`- Plan files this session wrote (latest last): ${plans.join("; ")}`];
}

function taskLines({ tasks, transcriptTasks }: RecoveryFacts): string[] {
  if (tasks) {
    const counts = Object.entries(tasks.byStatus).map(([status, count]) => `${count} ${status}`);
    return [`- Task list: ${tasks.dir}/ (${plural(tasks.total, "task")}: ${counts.join(", ")}); TaskList shows it.`];
  }
  if (transcriptTasks.length === 0) return [];
  return [`- Tasks this session created with the Task tools: ${list(transcriptTasks.map(taskText))}`];
}

function taskText(task: TaskItem): string {
  return `#${task.id} ${clip(task.subject)} [${task.status}]`;
}

function todoLines(todos: TodoItem[] | null): string[] {
  if (!todos || todos.length === 0) return [];
  const shown = todos.slice(0, MAX_LIST_ITEMS).map((todo) => `  - [${todo.status}] ${clip(todo.content)}`);
  const more = todos.length > MAX_LIST_ITEMS ? [`  - … ${todos.length - MAX_LIST_ITEMS} more`] : [];
  return [
    "- The latest TodoWrite list (TodoWrite keeps no file; this is its last state in the transcript):",
    ...shown,
    ...more,
  ];
}

function list(items: string[]): string {
  const shown = items.slice(0, MAX_LIST_ITEMS).join("; ");
  return items.length > MAX_LIST_ITEMS ? `${shown}; … ${items.length - MAX_LIST_ITEMS} more` : shown;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_ITEM_CHARS ? `${line.slice(0, MAX_ITEM_CHARS - 1)}…` : line;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}
