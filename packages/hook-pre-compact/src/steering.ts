import { capText, compactionWorkers, MAX_CONTEXT_CHARS, type TranscriptFacts } from "@carryover/core";
import { code, oneLine, type Scope, shownPath, utcMinute } from "./describe.ts";
import type { EarlierSummary } from "./earlier.ts";
import type { PrepState } from "./prep-state.ts";
import type { Topology } from "./snapshot.ts";

export interface SteeringInput {
  /** This compaction. */
  compaction: { trigger: "manual" | "auto"; atMs: number };
  /** Earlier compactions of this session, oldest first (`earlierSummaries`). */
  earlier: readonly EarlierSummary[];
  prep: PrepState | null;
  facts: TranscriptFacts | null;
  /** The previous compaction's time and the tmux window, as the snapshot has them. */
  topology: Topology;
  scope: Scope;
  maxChars: number;
}

const MAX_QUOTED_SECTION_CHARS = 1_500;
const MAX_FACT_ITEMS = 8;
// The summaries block's tags, its omission note and the blank lines around it.
const BLOCK_OVERHEAD_CHARS = 120;
// Below this, an earlier summary is not worth quoting: its label would be most of it.
const MIN_SUMMARY_CHARS = 200;

const SECTIONS = `After it come these sections, each present even when empty:
- "Adopted decisions": what was decided, each with its reason.
- "Rejected options": what was ruled out, each with the reason it was rejected.
- "Constraints": rules and limits the user set in this session, in the user's words where possible.
- "Current phase": where the work stands, the next step, and what must be verified before continuing.`;

/**
 * The text PreCompact prints: Claude Code 2.1.332 appends a PreCompact hook's plain stdout to the
 * compaction prompt as "Additional Instructions" (JSON would be appended raw; hookSpecificOutput makes
 * the hook fail) and cuts it at 10,000 characters, so it is plain text within `maxChars`.
 *
 * After a manual /compact the same stdout is shown to the user and recorded in the new conversation as
 * `<local-command-stdout>` (each line dimmed with ANSI codes by Claude Code 2.1.332), where the agent and
 * every later summary see it. So it describes the summary of one named compaction rather than ordering
 * anyone, states nothing a later compaction makes false, and after a manual one quotes only the earlier
 * summaries the conversation does not already open with.
 */
export function steeringText(input: SteeringInput): string {
  const maxChars = Math.min(input.maxChars, MAX_CONTEXT_CHARS);
  const { trigger, atMs } = input.compaction;
  const head =
    `carryover pre-compact: what the summary of this compaction (${trigger}, ${utcMinute(atMs)}) must hold; ` +
    "it concerns that summary only.";
  const prep = prepQuote(input.prep);
  const facts = input.facts ? factsLine(input.facts, input.scope) : "";
  const workers = workersLine(input.facts, input.topology);
  const earlier = input.earlier;
  // The latest earlier summary opens the conversation being summarized; a manual compaction's output is echoed
  // into the next conversation, so it does not repeat it.
  const quoted = trigger === "manual" ? earlier.slice(0, -1) : earlier;
  const opening = openingText(earlier, quoted, input.facts);
  const fixed = [head, opening, SECTIONS, prep, facts, workers].filter(Boolean);
  const fixedChars = fixed.join("\n\n").length + BLOCK_OVERHEAD_CHARS;
  const block = quoted.some((entry) => entry.summary) ? summariesBlock(quoted, maxChars - fixedChars) : "";
  const parts = [head, opening, ...(block ? [block] : []), SECTIONS, prep, facts, workers].filter(Boolean);
  return capText(parts.join("\n\n"), maxChars);
}

function openingText(
  earlier: readonly EarlierSummary[],
  quoted: readonly EarlierSummary[],
  facts: TranscriptFacts | null,
): string {
  if (earlier.length === 0) {
    // Only a transcript read from its start shows there was no compaction before.
    const none = facts !== null && facts.skipped.headBytes === 0;
    return none
      ? 'The summary begins with a section "Historical summaries" holding "none yet": ' +
          "the session's transcript has no earlier compaction."
      : 'The summary begins with a section "Historical summaries": what earlier summaries of this session recorded, ' +
          'if the conversation holds any, condensed, oldest first; else "none yet".';
  }
  const count = earlier.length === 1 ? "the earlier compaction" : `the ${earlier.length} earlier compactions`;
  const names = earlier.length === 1 ? "it names" : "they name";
  const latest = earlier.at(-1)!;
  const opener =
    quoted.length < earlier.length
      ? ` The conversation opens with the latest one's summary (${latest.trigger}, ${when(latest)}).`
      : "";
  return (
    `The summary begins with a section "Historical summaries" that carries forward, condensed, what ${count} ` +
    "of this session recorded, oldest first. " +
    `That section keeps every decision, constraint, open problem and file path ${names}, and drops only narration.` +
    `${opener}${quoted.some((entry) => entry.summary) ? " They were:" : ""}`
  );
}

function when(entry: EarlierSummary): string {
  return entry.atMs === null ? "time unknown" : utcMinute(entry.atMs);
}

function summariesBlock(all: readonly EarlierSummary[], budgetChars: number): string {
  const summaries = all.filter((entry) => entry.summary);
  const numbered = summaries.map((entry, index) => ({
    entry,
    label: `[${index + 1}] ${entry.trigger} compaction, ${when(entry)}:\n`,
  }));
  // The oldest go first when all cannot fit: each later summary was asked to carry them already.
  let kept = numbered;
  const labelChars = () => kept.reduce((sum, { label }) => sum + label.length + 1, 0);
  while (kept.length > 1 && budgetChars - labelChars() < MIN_SUMMARY_CHARS * kept.length) kept = kept.slice(1);
  const available = budgetChars - labelChars();
  if (available < MIN_SUMMARY_CHARS) return "";
  const shares = fairShares(
    kept.map(({ entry }) => entry.summary.trim().length),
    available,
  );
  const body = kept.map(({ entry, label }, index) => label + cut(entry.summary.trim(), shares[index]!)).join("\n");
  const omitted = summaries.length - kept.length;
  const note = omitted > 0 ? `(the ${omitted} oldest are left out for room; the later ones carry them)\n` : "";
  return `<earlier-summaries>\n${note}${body}\n</earlier-summaries>`;
}

/** Splits `total` so that short texts keep all they need and the long ones share the rest equally. */
function fairShares(lengths: readonly number[], total: number): number[] {
  const shares = lengths.map(() => 0);
  let left = total;
  const order = lengths.map((length, index) => ({ length, index })).sort((a, b) => a.length - b.length);
  order.forEach(({ length, index }, position) => {
    const share = Math.min(length, Math.floor(left / (order.length - position)));
    shares[index] = share;
    left -= share;
  });
  return shares;
}

function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const note = " […]";
  return text.slice(0, Math.max(0, maxChars - note.length)).trimEnd() + note;
}

function prepQuote(prep: PrepState | null): string {
  if (!prep || (!prep.decisions && !prep.constraints)) return "";
  const file = `The session's /compact-prep state file (${prep.path}, saved ${utcMinute(prep.savedAtMs)})`;
  const parts = [
    prep.predatesPrevious
      ? `${file} predates the previous compaction and may describe an earlier stage of the work; it records the ` +
        "following, and those sections carry what of it still holds:"
      : `${file} records the following; those sections carry it faithfully:`,
  ];
  if (prep.decisions) parts.push(`Session Decisions:\n${cut(prep.decisions, MAX_QUOTED_SECTION_CHARS)}`);
  if (prep.constraints) parts.push(`Constraints and Blockers:\n${cut(prep.constraints, MAX_QUOTED_SECTION_CHARS)}`);
  return parts.join("\n");
}

function factsLine(facts: TranscriptFacts, scope: Scope): string {
  const files = facts.since.filesChanged.map((file) => shownPath(file.path, scope));
  const open = facts.since.errors.filter((error) => !error.resolved);
  if (files.length === 0 && open.length === 0) return "";
  const parts: string[] = [];
  if (files.length > 0) parts.push(`files changed: ${list(files.map(code))}`);
  const openError = (error: (typeof open)[number]) => {
    const target = error.tool === "Bash" ? error.target : shownPath(error.target, scope);
    return `${error.tool} ${oneLine(target, 80)} (${oneLine(error.message, 100)})`;
  };
  if (open.length > 0) parts.push(`unresolved errors: ${list(open.map(openError))}`);
  return `Since the previous compaction, the transcript shows these; the summary names them: ${parts.join("; ")}.`;
}

/**
 * The workers still at work (from the transcript) and the tmux panes beside the session's own: a summary that
 * drops them leaves the agent to start the same work again.
 */
function workersLine(facts: TranscriptFacts | null, topology: Topology): string {
  const { live } = compactionWorkers(facts?.workers ?? [], topology.previousCompactionAtMs);
  const workers = live.map((worker) => {
    const what = [
      worker.description && `“${oneLine(worker.description, 80)}”`,
      worker.command && code(oneLine(worker.command, 80)),
    ].filter(Boolean);
    return `${worker.kind} ${code(worker.id)} (${what.join(", ") || worker.agentType || "no description"})`;
  });
  const panes = (topology.window?.panes ?? [])
    .filter((pane) => !pane.self)
    .map((pane) => {
      const what = [pane.title && `“${oneLine(pane.title, 60)}”`, code(pane.command)].filter(Boolean);
      return `tmux pane ${code(pane.id)} (${what.join(", ")})`;
    });
  if (workers.length === 0 && panes.length === 0) return "";
  return (
    "These workers were at work when this compaction began (the transcript and tmux say so); the summary names " +
    'each under "Current phase" with its id and what it was doing, so that none is started again: ' +
    `${list([...workers, ...panes])}.`
  );
}

function list(items: string[]): string {
  return items.length > MAX_FACT_ITEMS
    ? `${items.slice(0, MAX_FACT_ITEMS).join(", ")} and ${items.length - MAX_FACT_ITEMS} more`
    : items.join(", ");
}
