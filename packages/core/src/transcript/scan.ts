import { readdirSync } from "node:fs";
import { join } from "node:path";
import { activityCollector } from "./_activity.ts";
import { callsCollector } from "./_calls.ts";
import type { Block, Collector, CollectorRun, ScanContext } from "./_collector.ts";
import { isObject } from "./_content.ts";
import { type CandidateStats, type DynamicNeedle, forEachCandidateLine, type Needle, needle } from "./candidates.ts";
import { conversationCollector } from "./conversation.ts";
import type { TranscriptFacts } from "./facts.ts";
import { parseTranscriptLine, type TranscriptLine } from "./line.ts";
import { plansCollector } from "./plans.ts";
import { workersCollector } from "./workers.ts";

export interface ScanOptions {
  /** Read at most `maxBytes`, the session's file from its end first, then its subagents' (bounded time). */
  maxBytes?: number;
  /** The plans directory (`plansDir(env)`), besides any `.claude/plans/` directory. */
  plansDir?: string;
  /** Files and directories whose changes are carryover's own (`carryoverOwnPaths`), left out of the work. */
  ownPaths?: readonly string[];
  /** Read the 2.x subagent transcripts beside the session's (default true). */
  subagents?: boolean;
  /** Number the compactions' and errors' lines: a pass over every byte, so only where a reader shows them. */
  lineNumbers?: boolean;
}

/** What every scan says of its reading, whichever collectors it ran. */
type ScanStats = Pick<TranscriptFacts, "subagentFiles" | "skipped" | "bytesRead">;

type FactsOf<C> = C extends { start(scan: ScanContext): { finish(): infer Facts } } ? Facts : never;
type CollectedFacts<C extends readonly unknown[]> = C extends readonly [infer First, ...infer Rest]
  ? FactsOf<First> & CollectedFacts<Rest>
  : unknown;

/** The bound a reader puts on a scan's time, whatever the transcript's size (BENCHMARKS.md has the scan's rate). */
export const MAX_SCAN_BYTES = 256 * 1024 * 1024;

/**
 * Reads a Claude Code transcript (JSONL) without loading it whole, and the 2.x subagent transcripts beside
 * it, and returns what the session did: files changed, commands run, errors and whether they were fixed,
 * todos, tasks, plans, the last request, plan mode, compactions and the workers it started.
 * Throws when the session's file cannot
 * be opened; lines it cannot read are counted in `skipped`.
 */
export async function scanTranscript(path: string, options: ScanOptions = {}): Promise<TranscriptFacts> {
  return scanTranscriptFor(
    path,
    [activityCollector, plansCollector, conversationCollector, workersCollector, callsCollector],
    options,
  );
}

/**
 * The scan of `scanTranscript` with only the given collectors (and those they build on): the same facts, in
 * one pass over the same files, with only their needles searched and only their code bundled. `skipped` counts
 * the lines this scan decoded.
 */
export async function scanTranscriptFor<const C extends readonly Collector<object>[]>(
  path: string,
  collectors: C,
  options: ScanOptions = {},
): Promise<CollectedFacts<C> & ScanStats> {
  const subagents = options.subagents === false ? [] : subagentTranscripts(path);
  const runs = new Map<Collector<object>, CollectorRun<object>>();
  const scan: ScanContext = {
    path,
    plansDir: options.plansDir,
    ownPaths: options.ownPaths ?? [],
    subagentTranscripts: new Map(subagents.map(({ agentId, file }) => [agentId, file])),
    use: <Run extends CollectorRun<object>>(collector: Collector<object, Run>): Run => {
      let run = runs.get(collector);
      if (!run) {
        run = collector.start(scan);
        // After the collectors its start used: they hear each line, and finish, first.
        runs.set(collector, run);
      }
      return run as Run;
    },
  };
  for (const collector of collectors) scan.use(collector);
  const lines = lineEvents([...runs.values()]);
  const read = (file: string, maxBytes: number | undefined) =>
    forEachCandidateLine(file, {
      needles: lines.needles(),
      skipLine: isBookkeeping,
      maxBytes,
      lineNumbers: options.lineNumbers === true,
      onLine: (text, at) => lines.line(text, at.line, at.offset),
    });
  const stats = await read(path, options.maxBytes);
  let bytesRead = stats.bytesRead;
  const tails: CandidateStats[] = [];
  for (const { agentId, file } of subagents) {
    const left = options.maxBytes === undefined ? undefined : options.maxBytes - bytesRead;
    if (left !== undefined && left <= 0) break;
    lines.beginSubagent(agentId);
    try {
      const sub = await read(file, left);
      bytesRead += sub.bytesRead;
      tails.push(sub);
    } catch {
      // A subagent's file that vanished or is not a file: its work stays uncounted, the session's is not lost.
    }
  }
  const facts = new Map([...runs].map(([collector, run]) => [collector, run.finish()]));
  return Object.assign({}, ...collectors.map((collector) => facts.get(collector)), {
    subagentFiles: lines.counts.subagentFiles,
    skipped: {
      badLines: lines.counts.badLines,
      truncatedTail: stats.unterminatedTail,
      longLines: stats.longLines + tails.reduce((sum, sub) => sum + sub.longLines, 0),
      headBytes: stats.headBytes + tails.reduce((sum, sub) => sum + sub.headBytes, 0),
      droppedEntries: [...runs.values()].reduce((sum, run) => sum + (run.dropped ?? 0), 0),
    },
    bytesRead,
  });
}

/**
 * Only the workers and the compactions, within MAX_SCAN_BYTES: what `carryover-state workers` and `carryover status`
 * show.
 */
export function scanWorkers(path: string) {
  return scanTranscriptFor(path, [workersCollector, conversationCollector], { maxBytes: MAX_SCAN_BYTES });
}

/** Decodes each candidate line once and tells every run what it holds, in file order. */
function lineEvents(runs: readonly CollectorRun<object>[]) {
  let file = 0;
  let agentId: string | undefined;
  let response = 0;
  let responseId = "";
  const counts = { subagentFiles: 0, badLines: 0 };

  const toolCalls = (line: TranscriptLine, lineNumber: number | undefined, atMs: number | undefined): void => {
    const content = line.message?.content;
    if (!Array.isArray(content)) return;
    const messageId = typeof line.message?.id === "string" ? line.message.id : "";
    const sidechain = line.isSidechain === true && file === 0;
    const cwd = typeof line.cwd === "string" ? line.cwd : undefined;
    for (const block of content as Block[]) {
      if (block?.type !== "tool_use" || typeof block.id !== "string" || typeof block.name !== "string") continue;
      if (!sidechain && (messageId !== responseId || !messageId)) {
        for (const run of runs) run.nextResponse?.();
        response += 1;
        responseId = messageId;
      } else if (sidechain && messageId !== responseId) {
        // A subagent's response: ordered, but it settles nothing (see _calls.ts).
        response += 1;
        responseId = messageId;
      }
      const call = {
        id: block.id,
        tool: block.name,
        input: isObject(block.input) ? block.input : {},
        order: { file, response, atMs },
        line: lineNumber,
        cwd,
        sidechain,
        agentId,
      };
      for (const run of runs) run.toolCall?.(call);
    }
  };

  /** Whether the line held tool results. */
  const toolResults = (line: TranscriptLine, atMs: number | undefined): boolean => {
    const content = line.message?.content;
    if (!Array.isArray(content)) return false;
    let any = false;
    for (const block of content as Block[]) {
      if (block?.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      any = true;
      const result = {
        id: block.tool_use_id,
        isError: block.is_error === true,
        content: block.content,
        result: line.toolUseResult,
        atMs,
        agentId,
      };
      for (const run of runs) run.toolResult?.(result);
    }
    return any;
  };

  return {
    counts,
    /** Every line the facts come from holds one of these; the rest (most of the bytes) is never decoded. */
    needles(): Array<Needle | DynamicNeedle> {
      const readings = runs.map((run) => run.reading?.() ?? {});
      const peeks = readings.flatMap((reading) => (reading.onToolUse ? [reading.onToolUse] : []));
      const found: Array<Needle | DynamicNeedle> = [];
      // Anchors are picked by measurement on generated 2.1.332 transcripts (see `needle`). The tool_use needle
      // comes first: the others may start where it found a call.
      if (runs.some((run) => run.toolCall)) {
        found.push(
          needle('"type":"tool_use"', '_use"', {
            onMatch: (region, at) => {
              for (const peek of peeks) peek(region, at);
            },
          }),
        );
      }
      for (const reading of readings) found.push(...(reading.needles ?? []));
      return found;
    },
    line(text: string, lineNumber: number | undefined, offset: number): void {
      const line = parseTranscriptLine(text);
      if (line === null) {
        counts.badLines += 1;
        return;
      }
      const atMs = timeOf(line);
      if (line.type === "assistant") toolCalls(line, lineNumber, atMs);
      else if (line.type !== "user" || !toolResults(line, atMs)) {
        const at = { line: lineNumber, offset, atMs, file };
        for (const run of runs) run.line?.(line, at);
      }
    },
    beginSubagent(id: string): void {
      for (const run of runs) run.beginSubagent?.();
      file += 1;
      counts.subagentFiles += 1;
      agentId = id;
      responseId = "";
    },
  };
}

function timeOf(line: TranscriptLine): number | undefined {
  const atMs = typeof line.timestamp === "string" ? Date.parse(line.timestamp) : Number.NaN;
  return Number.isFinite(atMs) ? atMs : undefined;
}

// Bookkeeping lines start with their type (2.1.332: `{"type":"api-request-blob",…`); conversation lines
// start with `{"parentUuid"`. A line whose leading type is not one we read is dropped before decoding.
const TYPE_FIRST = Buffer.from('{"type":"');
const READ_TYPES = new Set(["user", "assistant", "system", "attachment", "permission-mode", "queue-operation"]);
const QUOTE = 0x22;

function isBookkeeping(region: Buffer, start: number, end: number): boolean {
  const typeStart = start + TYPE_FIRST.length;
  if (typeStart >= end || region.compare(TYPE_FIRST, 0, TYPE_FIRST.length, start, typeStart) !== 0) return false;
  const typeEnd = region.indexOf(QUOTE, typeStart);
  return typeEnd !== -1 && typeEnd < end && !READ_TYPES.has(region.toString("latin1", typeStart, typeEnd));
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;

/** Claude Code 2.1.332 keeps a subagent's transcript in `<session>/subagents/agent-<id>.jsonl` beside the session's. */
function subagentTranscripts(path: string): Array<{ agentId: string; file: string }> {
  if (!path.endsWith(".jsonl")) return [];
  const dir = join(path.slice(0, -".jsonl".length), "subagents");
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, match: AGENT_FILE.exec(name) }))
    .filter(({ match }) => match !== null)
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map(({ name, match }) => ({ agentId: match![1]!, file: join(dir, name) }));
}
