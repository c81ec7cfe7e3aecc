import type { Place } from "./classify.ts";
import { explainMiss, explainWrong } from "./explain.ts";
import { FACTS, type Fact } from "./facts.ts";
import type { Cell, ScenarioRun } from "./run.ts";
import { SCENARIOS } from "./scenarios.ts";

export interface RecallFailure {
  scenario: string;
  withCarryover: boolean;
  error: string;
}

interface RecallTarget {
  what: string;
  measured: string;
  met: boolean;
}

export interface RecallReport {
  markdown: string;
  targets: RecallTarget[];
}

/** One column of the table: a classified compaction, with carryover and without. */
interface Column {
  title: string;
  with?: Cell;
  without?: Cell;
  notes: string[];
  failed?: string;
}

interface Miss {
  column: Column;
  fact: Fact;
}

const SHORT: Record<Place, string> = {
  "in context": "context",
  "one read away": "1 read",
  "asked of the summarizer": "asked",
  lost: "lost",
};
const REACHED: ReadonlySet<Place> = new Set(["in context", "one read away"]);

const INTRO = [
  "Scripted sessions through the real Claude Code CLI against the mock API plant every kind of fact carryover",
  "handles, then compact. Each fact is looked for in the first request after the compaction, as the mock recorded",
  "it: **in context** (its text reaches the model), **one read away** (in a file that request names, read when the",
  "request arrived), **asked** of the summarizer only (in PreCompact's instructions), or **lost**. The mock writes",
  'the summary ("MOCK SUMMARY n: the user asked for things; files were edited."), which keeps none of them: this',
  "measures what carryover adds to what Claude Code keeps by itself, not what a model's summary would keep. The",
  "session transcript, which Claude Code names after every compaction and which holds the whole history, does not",
  "count as one read away.",
  "",
  "Each scenario runs twice in a fresh HOME: with carryover installed as a user installs it (`carryover install",
  "--all` from the built CLI) and without it. A session is one `claude -p --input-format stream-json` process, as",
  "long-lived as the TUI's, so background work goes on across turns. The facts: a file written and edited;",
  "`cat recall-fixture.txt` failing, then passing once the file exists; `ls recall-missing-dir` failing for good;",
  "two tasks (Task tools); a plan file written in plan mode, still on at the compaction; a background shell and a",
  "background subagent still running (and a shell and a subagent that finished, never to be called running); a",
  "line in the project's pinned.md; and, said in the conversation and saved by /compact-prep where it runs, an",
  "adopted decision, a rejected option with its reason, a constraint and the current phase.",
  "",
  "Each cell: with carryover · without. †: a /compact-prep fact where /compact-prep did not run, so carryover holds",
  "nothing of it (not judged). **Bold**: a target missed.",
];

/** A fact carryover is expected to hold in this cell: all of them, the /compact-prep ones where it ran. */
export function judged(fact: Fact, cell: Cell): boolean {
  return !fact.viaPrep || cell.prepared;
}

function reached(cell: Cell, fact: Fact): boolean {
  return REACHED.has(cell.placements[fact.id].place);
}

export function recallReport(
  runs: readonly ScenarioRun[],
  failures: readonly RecallFailure[],
  run: { startedAt: Date; durationMs: number; load: string },
): RecallReport {
  const columns = tableColumns(runs, failures);
  const misses = columns.flatMap((column) => {
    const cell = column.with;
    return cell
      ? FACTS.filter((fact) => judged(fact, cell) && !reached(cell, fact)).map((fact) => ({ column, fact }))
      : [];
  });
  const wrongs = columns.flatMap((column) => (column.with?.wrongs ?? []).map((wrong) => ({ column, wrong })));
  const header = ["fact", ...columns.map((column) => column.title)];
  const targets = recallTargets(columns, misses.length, wrongs.length);
  const lines = [
    ...INTRO,
    "",
    `**Targets:** ${targets.map(targetText).join("; ")}.`,
    "",
    table(header, placeRows(columns)),
    "",
    "Where each fact was found, with carryover (◆: through something carryover put in the request: its hook",
    "contexts, its echoed PreCompact output, its MEMORY.md line, or a file only carryover names):",
    "",
    table(header, sourceRows(columns)),
    "",
    `${runs.length} sessions in ${(run.durationMs / 1000).toFixed(0)} s, started ${utcMinute(run.startedAt)} UTC; ` +
      `load average (1 / 5 / 15 min) ${run.load}.`,
    "",
    claudeAlone(columns),
    "",
    ...columns.filter((c) => c.failed).flatMap((column) => [`**${column.title} failed:** ${column.failed}`, ""]),
    "### Misses: why, and what would close them",
    "",
    ...(misses.length === 0 ? ["None."] : missLines(misses)),
    "",
    "### Wrong: what carryover said that was stale or false",
    "",
    ...(wrongs.length === 0 ? ["None."] : []),
    ...wrongs.map(({ column, wrong }) => {
      const { why, close } = explainWrong(wrong);
      return `- **${wrong.what}** (${column.title}): ${wrong.evidence}. Why: ${why}. To close it: ${close}.`;
    }),
    "",
  ];
  return { markdown: lines.join("\n"), targets };
}

function tableColumns(runs: readonly ScenarioRun[], failures: readonly RecallFailure[]): Column[] {
  return SCENARIOS.flatMap((scenario) =>
    scenario.columns.map((column, index): Column => {
      const of = (withCarryover: boolean) =>
        runs.find((r) => r.scenario === scenario.id && r.withCarryover === withCarryover);
      const failed = failures
        .filter((f) => f.scenario === scenario.id)
        .map((f) => `${f.withCarryover ? "with" : "without"} carryover: ${f.error}`);
      return {
        title: column.title,
        with: of(true)?.cells[index],
        without: of(false)?.cells[index],
        notes: of(true)?.notes ?? [],
        ...(failed.length > 0 ? { failed: failed.join("; ") } : {}),
      };
    }),
  );
}

function recallTargets(columns: readonly Column[], misses: number, wrongs: number): RecallTarget[] {
  const judgedCount = columns.reduce(
    (sum, { with: cell }) => sum + (cell ? FACTS.filter((f) => judged(f, cell)).length : 0),
    0,
  );
  const failed = columns.filter((column) => column.failed || !column.with || !column.without).length;
  const failedNote = failed > 0 ? ` (${failed} scenario${failed === 1 ? "" : "s"} failed)` : "";
  return [
    {
      what: "recall: every fact carryover holds is in context or one read away, in every compaction scenario",
      measured: `${judgedCount - misses} of ${judgedCount}${failedNote}`,
      met: misses === 0 && failed === 0,
    },
    {
      what: "recall: nothing stale or false from carryover",
      measured: `${wrongs} wrong${failedNote}`,
      met: wrongs === 0 && failed === 0,
    },
  ];
}

function placeRows(columns: readonly Column[]): string[][] {
  const cell = (column: Column, fact: Fact): string => {
    if (!column.with || !column.without) return "failed";
    const place = SHORT[column.with.placements[fact.id].place];
    const judgedHere = judged(fact, column.with);
    const withText = judgedHere && !reached(column.with, fact) ? `**${place}**` : `${place}${judgedHere ? "" : "†"}`;
    return `${withText} · ${SHORT[column.without.placements[fact.id].place]}`;
  };
  const count = (c: Cell) => FACTS.filter((fact) => reached(c, fact)).length;
  return [
    ...FACTS.map((fact) => [fact.kind, ...columns.map((column) => cell(column, fact))]),
    [
      "in context or one read away",
      ...columns.map((c) =>
        c.with && c.without ? `${count(c.with)} · ${count(c.without)} of ${FACTS.length}` : "failed",
      ),
    ],
    ["wrong (carryover's)", ...columns.map((c) => (c.with ? bold(c.with.wrongs.length) : "failed"))],
  ];
}

function sourceRows(columns: readonly Column[]): string[][] {
  return FACTS.map((fact) => [
    fact.kind,
    ...columns.map((column) => {
      const placement = column.with?.placements[fact.id];
      if (!placement) return "failed";
      return placement.place === "lost" ? "—" : `${placement.source}${placement.byCarryover ? " ◆" : ""}`;
    }),
  ]);
}

/** What the baseline shows Claude Code keeping by itself, and what only carryover brought within reach. */
function claudeAlone(columns: readonly Column[]): string {
  const complete = columns.filter((column) => column.with && column.without);
  const kept = FACTS.filter((fact) => complete.every((column) => reached(column.without!, fact)));
  const sources = new Set(kept.flatMap((fact) => complete.map((column) => column.without!.placements[fact.id].source)));
  const added = complete.flatMap((c) => FACTS.filter((fact) => reached(c.with!, fact) && !reached(c.without!, fact)));
  const keptText =
    kept.length > 0 ? `${kept.map((fact) => fact.kind).join(", ")} (${[...sources].join("; ")})` : "no fact";
  return (
    `Without carryover, Claude Code 2.1.332 kept ${keptText} in every scenario. With carryover, ${added.length} ` +
    `facts of the ${complete.length * FACTS.length} cells were within reach that were not without it.`
  );
}

/** One line per cause, naming every fact and scenario it was missed in. */
function missLines(misses: readonly Miss[]): string[] {
  const groups: Array<{ cells: string[]; why: string; close: string }> = [];
  for (const { column, fact } of misses) {
    const { why, close } = explainMiss(fact, column.notes);
    const cell = `**${fact.kind}** (${column.title})`;
    const group = groups.find((g) => g.why === why);
    if (group) group.cells.push(cell);
    else groups.push({ cells: [cell], why, close });
  }
  return groups.map((group) => `- ${group.cells.join(", ")}: ${group.why}. To close it: ${group.close}.`);
}

function targetText(target: RecallTarget): string {
  return `${target.what.replace(/^recall: /, "")}: ${target.measured} (${target.met ? "met" : "**missed**"})`;
}

function utcMinute(date: Date): string {
  return date.toISOString().slice(0, 16).replace("T", " ");
}

function bold(count: number): string {
  return count === 0 ? "0" : `**${count}**`;
}

function table(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}
