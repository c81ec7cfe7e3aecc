import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { CarryoverError } from "../errors.ts";

/** A byte string a wanted line holds, found through `anchor`, a part of it. */
export interface Needle {
  full: Buffer;
  anchor: Buffer;
  /** Where `anchor` sits in `full`. */
  anchorAt: number;
  /**
   * Where to start searching the chunk, null to skip it; asked once per chunk, after the needles listed
   * before it have been searched. Without it, the whole chunk.
   */
  startAt?(): number | null;
  /** Sees each match (the chunk's bytes and where `full` starts) before any line is decoded. */
  onMatch?(region: Buffer, at: number): void;
  /** A last look at a match's bytes (where `full` starts); false passes it over. */
  accept?(region: Buffer, at: number): boolean;
}

/**
 * Buffer.indexOf runs memchr on the first byte of a pattern under 7 bytes and Boyer-Moore-Horspool
 * on longer ones; a short anchor that starts with a byte rare in transcripts (an uppercase letter)
 * is found faster than a long needle starting with `"`, which JSON is full of.
 */
export function needle(
  full: string,
  anchor = full,
  hooks: Pick<Needle, "startAt" | "onMatch" | "accept"> = {},
): Needle {
  const anchorAt = full.indexOf(anchor);
  if (anchorAt === -1) {
    throw new CarryoverError("BAD_INPUT", `anchor ${JSON.stringify(anchor)} is not in ${JSON.stringify(full)}`);
  }
  return { full: Buffer.from(full), anchor: Buffer.from(anchor), anchorAt, ...hooks };
}

/**
 * Byte strings known only while reading (the id of a call whose result is wanted), asked once per chunk after
 * the needles listed before it have been searched, each with where in the chunk to start.
 */
export interface DynamicNeedle {
  searches(): Iterable<{ bytes: Buffer; from: number }>;
}

export interface CandidateOptions {
  /** A line is decoded only when it holds one of these (a plain Buffer is its own anchor). */
  needles: readonly (Needle | Buffer | DynamicNeedle)[];
  /** Cheap look at a candidate's raw bytes; true skips it before decoding. */
  skipLine?(region: Buffer, start: number, end: number): boolean;
  /** Read only the last `maxBytes` of the file (its first, partial line is dropped). */
  maxBytes?: number | undefined;
  /** Counts lines, so `onLine` gets each line's 1-based number (not with `maxBytes` cutting the head). */
  lineNumbers?: boolean;
  onLine(text: string, at: LinePlace): void;
  /** After each chunk read: the bytes read so far (for a progress indicator). */
  onChunk?(bytesRead: number): void;
}

/** Where a handed-over line is: its 1-based number (when counted and known) and its byte offset. */
interface LinePlace {
  line: number | undefined;
  offset: number;
}

export interface CandidateStats {
  bytesRead: number;
  /** Bytes before the window `maxBytes` left unread. */
  headBytes: number;
  /** Lines longer than MAX_LINE_BYTES, passed over unread. */
  longLines: number;
  /** The file's last line had no newline (Claude Code was still writing it); it was still offered. */
  unterminatedTail: boolean;
}

const CHUNK_BYTES = 1024 * 1024;
// A Write of a large file or a huge tool result can make one line this long; past it, the line is
// passed over so peak memory stays bounded.
const MAX_LINE_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Streams a JSONL file in 1 MiB chunks and hands over, in file order, only the lines that contain a
 * needle: Buffer.indexOf over the whole chunk finds them, so the other lines are never decoded. The
 * next chunk is read while this one is searched.
 */
export async function forEachCandidateLine(path: string, options: CandidateOptions): Promise<CandidateStats> {
  // Non-blocking: a FIFO nobody writes would block the open, a device like /dev/zero never ends.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let next: Promise<Buffer> | null = null;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new CarryoverError("BAD_INPUT", `${path} is not a regular file`);
    const size = stat.size;
    const from = options.maxBytes !== undefined && size > options.maxBytes ? size - options.maxBytes : 0;
    const stats: CandidateStats = { bytesRead: 0, headBytes: from, longLines: 0, unterminatedTail: false };
    const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)];
    const read = (turn: number, at: number): Promise<Buffer> => {
      const buffer = buffers[turn]!;
      return handle.read(buffer, 0, CHUNK_BYTES, at).then(({ bytesRead }) => buffer.subarray(0, bytesRead));
    };
    // The start of a line that continues in the next chunk (copied: its buffer is about to be reused).
    let carry: Buffer[] = [];
    let carryBytes = 0;
    // Inside a line that is not handed over: the window's partial first line, or an over-long one.
    let skipping = from > 0;
    let position = from;
    // Lines before the region being searched; unknown inside a window that starts mid-file.
    const counting = options.lineNumbers === true && from === 0;
    const place = { lines: 0, counting };
    next = read(0, position);
    for (let turn = 0; ; turn ^= 1) {
      const chunk = await next;
      next = null;
      const bytesRead = chunk.length;
      if (bytesRead === 0) break;
      position += bytesRead;
      stats.bytesRead += bytesRead;
      options.onChunk?.(stats.bytesRead);
      next = read(turn ^ 1, position);
      const firstNewline = chunk.indexOf(NEWLINE);
      if (firstNewline === -1) {
        if (skipping) continue;
        if (carryBytes + bytesRead > MAX_LINE_BYTES) {
          stats.longLines += 1;
          skipping = true;
          carry = [];
          carryBytes = 0;
        } else {
          carry.push(Buffer.from(chunk));
          carryBytes += bytesRead;
        }
        continue;
      }
      const chunkAt = position - bytesRead;
      if (!skipping) {
        const head = chunk.subarray(0, firstNewline + 1);
        scanRegion(carry.length === 0 ? head : Buffer.concat([...carry, head]), chunkAt - carryBytes, place, options);
      } else place.lines += 1;
      skipping = false;
      const lastNewline = chunk.lastIndexOf(NEWLINE);
      if (lastNewline > firstNewline)
        scanRegion(chunk.subarray(firstNewline + 1, lastNewline + 1), chunkAt + firstNewline + 1, place, options);
      carryBytes = bytesRead - lastNewline - 1;
      carry = carryBytes > 0 ? [Buffer.from(chunk.subarray(lastNewline + 1))] : [];
    }
    if (carryBytes > 0 && !skipping) {
      stats.unterminatedTail = true;
      scanRegion(Buffer.concat([...carry, Buffer.from([NEWLINE])]), position - carryBytes, place, options);
    }
    return stats;
  } finally {
    await next?.catch(() => undefined);
    await handle.close();
  }
}

/** `region` holds whole lines, each ending in a newline; it starts at byte `offset`, after `place.lines` lines. */
function scanRegion(
  region: Buffer,
  offset: number,
  place: { lines: number; counting: boolean },
  options: CandidateOptions,
): void {
  const starts: number[] = [];
  for (const item of options.needles) {
    if ("searches" in item) {
      for (const { bytes, from } of item.searches()) {
        for (let at = region.indexOf(bytes, from); at !== -1; at = region.indexOf(bytes, at + bytes.length)) {
          starts.push(region.lastIndexOf(NEWLINE, at) + 1);
        }
      }
      continue;
    }
    const { full, anchor, anchorAt, startAt, onMatch, accept }: Needle = Buffer.isBuffer(item)
      ? { full: item, anchor: item, anchorAt: 0 }
      : item;
    const from = startAt ? startAt() : 0;
    if (from === null) continue;
    let at = region.indexOf(anchor, from);
    while (at !== -1) {
      const fullAt = at - anchorAt;
      if (anchorAt === 0 && anchor.length === full.length) {
        // The anchor is the whole needle.
      } else if (fullAt < 0 || region.compare(full, 0, full.length, fullAt, fullAt + full.length) !== 0) {
        at = region.indexOf(anchor, at + 1);
        continue;
      }
      if (accept && !accept(region, fullAt)) {
        at = region.indexOf(anchor, at + 1);
        continue;
      }
      onMatch?.(region, fullAt);
      starts.push(region.lastIndexOf(NEWLINE, at) + 1);
      at = region.indexOf(anchor, region.indexOf(NEWLINE, at) + 1);
    }
  }
  // One indexOf per line of the file: the price of line numbers.
  let counted = 0;
  let cursor = 0;
  const lineAt = (start: number): number | undefined => {
    if (!place.counting) return undefined;
    for (let at = region.indexOf(NEWLINE, cursor); at !== -1 && at < start; at = region.indexOf(NEWLINE, at + 1)) {
      counted += 1;
      cursor = at + 1;
    }
    return place.lines + counted + 1;
  };
  if (starts.length > 0) {
    starts.sort((a, b) => a - b);
    let previous = -1;
    for (const start of starts) {
      if (start === previous) continue;
      previous = start;
      const end = region.indexOf(NEWLINE, start);
      if (options.skipLine?.(region, start, end)) continue;
      options.onLine(region.toString("utf8", start, end), { line: lineAt(start), offset: offset + start });
    }
  }
  if (place.counting) lineAt(region.length);
  place.lines += place.counting ? counted : 0;
}
