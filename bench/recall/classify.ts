import type { Capture, NamedFile } from "./capture.ts";
import { type Fact, hasMarker, MARK, markerIndex } from "./facts.ts";
import type { Segment } from "./segments.ts";

/** Where a fact stands in the first request after a compaction, best first. */
export type Place = "in context" | "one read away" | "asked of the summarizer" | "lost";

export interface Placement {
  place: Place;
  /** What holds it: the segment of the request, the file it names, or PreCompact's instructions. */
  source: string;
  /** The request's text holds it in something carryover put there. */
  byCarryover: boolean;
}

/** What the classifier must know of the session beyond the request: what was true at the compaction. */
export interface Truth {
  /** Compactions of this session before the one classified. */
  earlierCompactions: number;
  /** /compact-prep saved a state before the previous compaction and none since. */
  stateBeforePrevious: boolean;
}

export interface Wrong {
  what: string;
  /** The line that says it, and where. */
  evidence: string;
}

export function place(fact: Fact, capture: Capture): Placement {
  if (fact.markers.every((marker) => hasMarker(capture.text, marker))) {
    const segment = segmentOf(capture.segments, fact.markers[0]!);
    return { place: "in context", source: segment?.label ?? "the request", byCarryover: segment?.by === "carryover" };
  }
  const file = bestFile(capture.files, fact);
  if (file) return { place: "one read away", source: file.label, byCarryover: file.namedByCarryover };
  if (capture.steering && fact.markers.every((marker) => hasMarker(capture.steering, marker))) {
    return { place: "asked of the summarizer", source: "PreCompact's instructions", byCarryover: true };
  }
  return { place: "lost", source: "", byCarryover: false };
}

function segmentOf(segments: readonly Segment[], marker: string | RegExp): Segment | undefined {
  const holding = segments.filter((segment) => markerIndex(segment.text, marker) >= 0);
  return holding.find((segment) => segment.by === "carryover") ?? holding[0];
}

/** The file holding the fact: the session's own (the plan, the tasks, the state) before carryover's copies. */
function bestFile(files: readonly NamedFile[], fact: Fact): NamedFile | undefined {
  const holding = files.filter((file) => fact.markers.every((marker) => hasMarker(file.content, marker)));
  return holding.find((file) => !file.byCarryover) ?? holding[0];
}

/**
 * Stale or false things carryover put in front of the model: in its hook contexts, its echoed PreCompact
 * output, its MEMORY.md line, the files it wrote that the request names, and its instructions to the summarizer.
 */
export function wrongs(capture: Capture, truth: Truth): Wrong[] {
  const sources = [
    ...capture.segments
      .filter((segment) => segment.by === "carryover")
      .map((segment) => ({ where: segment.label, text: segment.text })),
    ...capture.files.filter((file) => file.byCarryover).map((file) => ({ where: file.label, text: file.content })),
    ...(capture.steering ? [{ where: "PreCompact's instructions", text: capture.steering }] : []),
  ];
  const found: Wrong[] = [];
  // A manual /compact echoes PreCompact's instructions into the next request: one statement, counted once.
  const said = new Set<string>();
  const flag = (what: string, where: string, line: string, at?: RegExp) => {
    const key = `${what}\n${line.trim()}`;
    if (said.has(key)) return;
    said.add(key);
    found.push({ what, evidence: `${where}: “${clip(line, at)}”` });
  };
  for (const { where, text } of sources) {
    for (const { line, heading } of claimLines(text)) {
      const claim = `${heading}\n${line}`;
      for (const finished of [MARK.finishedShell, MARK.finishedAgent]) {
        if (line.includes(finished) && RUNNING.test(line) && !FINISHED.test(line))
          flag("a finished worker called running", where, line);
      }
      for (const running of [MARK.watcher, MARK.scout]) {
        if (line.includes(running) && FINISHED.test(line) && !RUNNING.test(line))
          flag("a running worker called finished", where, line);
      }
      if (line.includes(MARK.fixedCommand) && UNRESOLVED.test(claim) && !FIXED.test(line))
        flag("a fixed error called unresolved", where, line);
      if (line.includes(MARK.unresolvedTarget) && FIXED.test(line) && !UNRESOLVED.test(line))
        flag("an unresolved error called fixed", where, line);
      if (OWN_FILE.test(line) && CHANGED_LIST.test(claim))
        flag("carryover's own file listed as the session's work", where, line);
      if (truth.earlierCompactions > 0 && NO_EARLIER.test(line))
        flag("an earlier compaction denied", where, line, NO_EARLIER);
      if (truth.stateBeforePrevious && STATE_CLAIM.test(line) && !STALE_FLAG.test(line)) {
        flag("a state from before the previous compaction presented as current", where, line);
      }
    }
  }
  const recoveries = capture.text.split(RECOVERY_HEADING).length - 1;
  if (recoveries > 1)
    found.push({
      what: "a second copy of a recovery context",
      evidence: `${recoveries} recovery contexts in request #${capture.request}`,
    });
  return found;
}

const RECOVERY_HEADING = "carryover recovery: this conversation was compacted";
const RUNNING = /\b(?:running|in progress|still going)\b/i;
const FINISHED = /\b(?:finished|completed|exited|returned|stopped|killed|done)\b/i;
const UNRESOLVED = /\bunresolved\b|\bstill fail/i;
const FIXED = /\bfixed\b|succeeded later|\bpassed\b/i;
const OWN_FILE = /CHANGES_SESSION\.md|compact-state\/|\/memory\/|carryover-session-|\.claude\/carryover\//;
const CHANGED_LIST =
  /files? (?:changed|modified)|Changed since|Editing Files| — (?:Write|Edit|MultiEdit|NotebookEdit)\b/i;
const NO_EARLIER =
  /has no earlier compaction|no earlier compaction recorded|holding "none yet"|session's first compaction/i;
// The recovery context's line for the state file, and PreCompact's quote of it to the summarizer.
const STATE_CLAIM = /^- Compact-prep state:|\/compact-prep state file \(.*\) records the following/;
const STALE_FLAG = /predates|earlier stage|before the previous (?:one|compaction)/i;

/** Each line with the nearest line above it that introduces a list (ends with a colon), or a Markdown heading. */
function claimLines(text: string): Array<{ line: string; heading: string }> {
  let heading = "";
  const out: Array<{ line: string; heading: string }> = [];
  for (const line of text.split("\n")) {
    out.push({ line, heading });
    if (/^#{1,6} |:\s*$/.test(line.trim())) heading = line;
  }
  return out;
}

/** The line on one line, at most 160 characters: around what `at` matches when given. */
function clip(line: string, at?: RegExp): string {
  const one = line.replace(/\s+/g, " ").trim();
  if (one.length <= 160) return one;
  const match = at ? one.search(at) : 0;
  const start = Math.max(0, Math.min(match - 60, one.length - 159));
  return `${start > 0 ? "…" : ""}${one.slice(start, start + 159)}…`;
}
