/**
 * What the scripted sessions plant, and how each fact is recognised in a request or a file: by markers,
 * strings that occur nowhere else, so finding them all in one place means the fact is there.
 */
export const MARK = {
  changedFile: "recall-parser.ts",
  fixedCommand: "cat recall-fixture.txt",
  unresolvedTarget: "recall-missing-dir",
  task1: "RECALL-TASK1",
  task2: "RECALL-TASK2",
  planGoal: "RECALL-PLAN-GOAL",
  watcher: "recall-watcher",
  scout: "recall-scout",
  pin: "RECALL-PIN",
  adopted: "RECALL-ADOPT",
  rejected: "RECALL-REJECT",
  rejectedReason: "RECALL-REASON",
  constraint: "RECALL-CONSTRAINT",
  phase: "RECALL-PHASE",
  /** A background shell that finished and a subagent that returned before any compaction: never "running". */
  finishedShell: "recall-quick",
  finishedAgent: "recall-helper",
} as const;

export type FactId =
  | "files"
  | "fixed"
  | "unresolved"
  | "tasks"
  | "plan"
  | "planMode"
  | "shell"
  | "subagent"
  | "pin"
  | "adopted"
  | "rejected"
  | "constraint"
  | "phase";

export interface Fact {
  id: FactId;
  /** The table's row. */
  kind: string;
  /** Every one must be found in the same place. */
  markers: ReadonlyArray<string | RegExp>;
  /** Saved only through /compact-prep: carryover holds it only in a scenario where /compact-prep ran. */
  viaPrep?: boolean;
}

export const FACTS: readonly Fact[] = [
  { id: "files", kind: "files changed", markers: [MARK.changedFile] },
  { id: "fixed", kind: "a command that failed, then was fixed", markers: [MARK.fixedCommand] },
  { id: "unresolved", kind: "an error left unresolved", markers: [MARK.unresolvedTarget] },
  { id: "tasks", kind: "the task list", markers: [MARK.task1, MARK.task2] },
  { id: "plan", kind: "the plan file", markers: [MARK.planGoal] },
  { id: "planMode", kind: "plan mode", markers: [/plan mode (?:is active|was on)/i] },
  { id: "shell", kind: "a background shell still running", markers: [MARK.watcher] },
  { id: "subagent", kind: "a subagent still running", markers: [MARK.scout] },
  { id: "pin", kind: "a pinned constraint", markers: [MARK.pin] },
  { id: "adopted", kind: "an adopted decision", markers: [MARK.adopted], viaPrep: true },
  {
    id: "rejected",
    kind: "a rejected option, with its reason",
    markers: [MARK.rejected, MARK.rejectedReason],
    viaPrep: true,
  },
  { id: "constraint", kind: "a constraint (saved by /compact-prep)", markers: [MARK.constraint], viaPrep: true },
  { id: "phase", kind: "the current phase", markers: [MARK.phase], viaPrep: true },
];

export function hasMarker(text: string, marker: string | RegExp): boolean {
  return typeof marker === "string" ? text.includes(marker) : marker.test(text);
}

/** Where a marker first occurs in `text`, or -1. */
export function markerIndex(text: string, marker: string | RegExp): number {
  if (typeof marker === "string") return text.indexOf(marker);
  return text.search(new RegExp(marker.source, marker.flags.replace("g", "")));
}
