import { readdirSync } from "node:fs";
import { join } from "node:path";
import { TranscriptCollector } from "./_collector.ts";
import { WORKER_TOOLS } from "./_workers.ts";
import { type CandidateStats, type DynamicNeedle, forEachCandidateLine, type Needle, needle } from "./candidates.ts";
import type { TranscriptFacts } from "./facts.ts";
import { readUsageBefore } from "./tail.ts";

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

// Every line the facts come from holds one of these; the rest (tool output, attachments, request
// bookkeeping: most of the bytes) is never decoded. They also occur inside bookkeeping lines, so the
// parsed line's `type` decides.
function needles(collector: TranscriptCollector): Array<Needle | DynamicNeedle> {
  // Where this chunk's first TaskCreate call is: a task's id is only in its result, further on.
  let taskCreateAt: number | null = null;
  // This chunk's worker calls (a background Bash, an Agent…), whose results are decoded: only they name the worker.
  let workerCalls: Array<{ id: string; at: number }> = [];
  const workersFrom = () => (collector.workers.active ? 0 : (workerCalls[0]?.at ?? null));
  return [
    // Anchors are picked by measurement on generated 2.1.332 transcripts (see `needle`).
    needle('"type":"tool_use"', '_use"', {
      // The block's name sits beside its type (2.1.332: `{"type":"tool_use","id":"…","name":"…"`).
      onMatch: (region, at) => {
        if (
          taskCreateAt === null &&
          region.subarray(Math.max(0, at - PEEK_BYTES), at + PEEK_BYTES).includes(TASK_CREATE_NAME)
        )
          taskCreateAt = at;
        const call = workerCall(region, at);
        if (call) workerCalls.push({ id: call, at });
      },
    }),
    needle('"is_error":true', "_error"),
    // A prompt, a command's echo, bash-mode input or a compaction summary: string or text content. Tool results,
    // whose content starts with a tool_result block, are most user lines and are passed over. (Each needle is a
    // pass over every chunk: what this one finds needs no other.)
    needle('"role":"user","content":', '"role":"user","content":', {
      accept: (region, at) => isTextContent(region, at + USER_CONTENT_BYTES),
    }),
    needle('"compactMetadata":', "Metada"),
    needle('"permissionMode":"', 'Mode":'),
    // Searched only past a TaskCreate call, or from the start while a call from an earlier chunk awaits its
    // id; most sessions never call TaskCreate, so most chunks skip this needle.
    needle('{"task":{"id":"', '{"task":{"id":"', {
      startAt: () => {
        const from = collector.awaitsTaskId() ? 0 : taskCreateAt;
        taskCreateAt = null;
        return from;
      },
    }),
    // The results of worker calls: this chunk's, and those of earlier chunks' calls still awaited.
    {
      searches: () => {
        const searches = [...collector.workers.awaitingResults()].map((id) => ({ bytes: resultNeedle(id), from: 0 }));
        for (const { id, at } of workerCalls) searches.push({ bytes: resultNeedle(id), from: at });
        return searches;
      },
    },
    // What Claude Code writes about workers later: searched once one is known, or from this chunk's first call.
    needle("<task-notification>", "<task-notif", { startAt: workersFrom }),
    needle('"type":"task_status"', "task_status", { startAt: workersFrom }),
    needle('"type":"session_cron_carry"', "session_cron_carry", {
      startAt: () => {
        const from = workersFrom();
        workerCalls = [];
        return from;
      },
    }),
  ];
}

const TOOL_USE_BYTES = Buffer.byteLength('"type":"tool_use"');
const ID_KEY = Buffer.from(',"id":"');
const NAME_KEY = Buffer.from('","name":"');
const BACKGROUND = Buffer.from('"run_in_background":true');
const MAX_ID_BYTES = 128;

/** A worker call's id at a tool_use match, from its bytes (every version: `"type":"tool_use","id":"…","name":"…"`). */
function workerCall(region: Buffer, at: number): string | null {
  const idAt = at + TOOL_USE_BYTES;
  if (!bytesAt(region, ID_KEY, idAt)) return null;
  const idStart = idAt + ID_KEY.length;
  const idEnd = region.indexOf(QUOTE, idStart);
  if (idEnd === -1 || idEnd - idStart > MAX_ID_BYTES || !bytesAt(region, NAME_KEY, idEnd)) return null;
  const nameStart = idEnd + NAME_KEY.length;
  const nameEnd = region.indexOf(QUOTE, nameStart);
  if (nameEnd === -1 || nameEnd - nameStart > MAX_ID_BYTES) return null;
  const name = region.toString("latin1", nameStart, nameEnd);
  if (name === "Bash") {
    const lineEnd = region.indexOf(NEWLINE, nameEnd);
    if (region.subarray(nameEnd, lineEnd === -1 ? region.length : lineEnd).indexOf(BACKGROUND) === -1) return null;
  } else if (!WORKER_TOOLS.has(name)) return null;
  return region.toString("utf8", idStart, idEnd);
}

function bytesAt(region: Buffer, bytes: Buffer, at: number): boolean {
  return at + bytes.length <= region.length && region.compare(bytes, 0, bytes.length, at, at + bytes.length) === 0;
}

function resultNeedle(id: string): Buffer {
  return Buffer.from(`"tool_use_id":${JSON.stringify(id)}`);
}

const USER_CONTENT_BYTES = Buffer.byteLength('"role":"user","content":');
const TEXT_BLOCKS = [Buffer.from('[{"type":"text"'), Buffer.from('[{"type":"image"')];

function isTextContent(region: Buffer, at: number): boolean {
  return (
    region[at] === QUOTE ||
    TEXT_BLOCKS.some((start) => region.compare(start, 0, start.length, at, at + start.length) === 0)
  );
}

const TASK_CREATE_NAME = Buffer.from('"name":"TaskCreate"');
const PEEK_BYTES = 200;

// Bookkeeping lines start with their type (2.1.332: `{"type":"api-request-blob",…`); conversation lines
// start with `{"parentUuid"`. A line whose leading type is not one we read is dropped before decoding.
const TYPE_FIRST = Buffer.from('{"type":"');
const READ_TYPES = new Set(["user", "assistant", "system", "attachment", "permission-mode", "queue-operation"]);
const QUOTE = 0x22;
const NEWLINE = 0x0a;

function isBookkeeping(region: Buffer, start: number, end: number): boolean {
  const typeStart = start + TYPE_FIRST.length;
  if (typeStart >= end || region.compare(TYPE_FIRST, 0, TYPE_FIRST.length, start, typeStart) !== 0) return false;
  const typeEnd = region.indexOf(QUOTE, typeStart);
  return typeEnd !== -1 && typeEnd < end && !READ_TYPES.has(region.toString("latin1", typeStart, typeEnd));
}

/**
 * Reads a Claude Code transcript (JSONL) without loading it whole, and the 2.x subagent transcripts beside
 * it, and returns what the session did: files changed, commands run, errors and whether they were fixed,
 * todos, tasks, plans, the last request, plan mode, compactions and the workers it started.
 * Throws when the session's file cannot
 * be opened; lines it cannot read are counted in `skipped`.
 */
export async function scanTranscript(path: string, options: ScanOptions = {}): Promise<TranscriptFacts> {
  const subagents = options.subagents === false ? [] : subagentTranscripts(path);
  const collector = new TranscriptCollector({
    plansDir: options.plansDir,
    ownPaths: options.ownPaths,
    subagentsFollow: subagents.length > 0,
    subagentTranscripts: new Map(subagents.map(({ agentId, file }) => [agentId, file])),
  });
  const read = (file: string, maxBytes: number | undefined) =>
    forEachCandidateLine(file, {
      needles: needles(collector),
      skipLine: isBookkeeping,
      maxBytes,
      lineNumbers: options.lineNumbers === true,
      onLine: (text, at) => collector.line(text, at.line, at.offset),
    });
  const stats = await read(path, options.maxBytes);
  for (const [record, offset] of collector.boundarylessAt) record.preTokens = readUsageBefore(path, offset);
  let bytesRead = stats.bytesRead;
  const tails: CandidateStats[] = [];
  for (const { agentId, file } of subagents) {
    const left = options.maxBytes === undefined ? undefined : options.maxBytes - bytesRead;
    if (left !== undefined && left <= 0) break;
    collector.beginSubagent(agentId);
    try {
      const sub = await read(file, left);
      bytesRead += sub.bytesRead;
      tails.push(sub);
    } catch {
      // A subagent's file that vanished or is not a file: its work stays uncounted, the session's is not lost.
    }
  }
  const { badLines, droppedEntries, ...facts } = collector.finish();
  return {
    ...facts,
    skipped: {
      badLines,
      truncatedTail: stats.unterminatedTail,
      longLines: stats.longLines + tails.reduce((sum, sub) => sum + sub.longLines, 0),
      headBytes: stats.headBytes + tails.reduce((sum, sub) => sum + sub.headBytes, 0),
      droppedEntries,
    },
    bytesRead,
  };
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
