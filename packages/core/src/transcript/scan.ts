import { forEachCandidateLine, type Needle, needle } from "./candidates.ts";
import { TranscriptCollector } from "./_collector.ts";
import type { TranscriptFacts } from "./facts.ts";

export interface ScanOptions {
  /** Activity (files, commands, errors) only from after the last compact_boundary. */
  fromLastBoundary?: boolean;
  /** Read only the file's last `maxBytes` (bounded time on any transcript). */
  maxBytes?: number;
  /** The plans directory (`plansDir(env)`); default: any `.claude/plans/` directory. */
  plansDir?: string;
}

// Every line the facts come from holds one of these; the rest (tool output, attachments, request
// bookkeeping: most of the bytes) is never decoded. They also occur inside bookkeeping lines, so the
// parsed line's `type` decides.
function needles(collector: TranscriptCollector): Needle[] {
  // Where this chunk's first TaskCreate call is: a task's id is only in its result, further on.
  let taskCreateAt: number | null = null;
  return [
    needle('"type":"tool_use"', '"type":"tool_use"', {
      // The block's name sits beside its type (2.1.332: `{"type":"tool_use","id":"…","name":"…"`).
      onMatch: (region, at) => {
        if (taskCreateAt === null && region.subarray(Math.max(0, at - PEEK_BYTES), at + PEEK_BYTES).includes(TASK_CREATE_NAME)) taskCreateAt = at;
      },
    }),
    needle('"is_error":true'),
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
  ];
}

const TASK_CREATE_NAME = Buffer.from('"name":"TaskCreate"');
const PEEK_BYTES = 200;

// Bookkeeping lines start with their type (2.1.332: `{"type":"api-request-blob",…`); conversation lines
// start with `{"parentUuid"`. A line whose leading type is not one we read is dropped before decoding.
const TYPE_FIRST = Buffer.from('{"type":"');
const READ_TYPES = new Set(["user", "assistant", "system", "permission-mode"]);
const QUOTE = 0x22;

function isBookkeeping(region: Buffer, start: number, end: number): boolean {
  const typeStart = start + TYPE_FIRST.length;
  if (typeStart >= end || region.compare(TYPE_FIRST, 0, TYPE_FIRST.length, start, typeStart) !== 0) return false;
  const typeEnd = region.indexOf(QUOTE, typeStart);
  return typeEnd !== -1 && typeEnd < end && !READ_TYPES.has(region.toString("latin1", typeStart, typeEnd));
}

/**
 * Reads a Claude Code transcript (JSONL) without loading it whole and returns what the session did:
 * files changed, commands run, errors and whether they were fixed, todos, tasks, plans, the last
 * request, plan mode and compactions. Throws when the file cannot be opened; lines it cannot read are
 * counted in `skipped`.
 */
export async function scanTranscript(path: string, options: ScanOptions = {}): Promise<TranscriptFacts> {
  const collector = new TranscriptCollector({ fromLastBoundary: options.fromLastBoundary ?? false, plansDir: options.plansDir });
  const stats = await forEachCandidateLine(path, {
    needles: needles(collector),
    skipLine: isBookkeeping,
    maxBytes: options.maxBytes,
    onLine: (text) => collector.line(text),
  });
  const { badLines, droppedEntries, ...facts } = collector.finish();
  return {
    ...facts,
    skipped: {
      badLines,
      truncatedTail: stats.unterminatedTail,
      longLines: stats.longLines,
      headBytes: stats.headBytes,
      droppedEntries,
    },
    bytesRead: stats.bytesRead,
  };
}
