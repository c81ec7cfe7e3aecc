import { statSync } from "node:fs";
import { forEachCandidateLine } from "./candidates.ts";

export interface TranscriptLineOptions {
  /** Only lines holding one of these strings are decoded: a byte-level pre-filter, most bytes stay undecoded. */
  needles: readonly string[];
  /** A candidate whose first `HEAD_BYTES` hold one of these is dropped undecoded (bookkeeping, snapshots). */
  skipHeads?: readonly string[];
  onLine(text: string): void;
  /** After each chunk read, with the bytes read so far and the file's size when it was opened. */
  onProgress?(bytesRead: number, totalBytes: number): void;
}

export interface TranscriptLineStats {
  totalBytes: number;
  bytesRead: number;
  /** Lines over 16 MiB, passed over unread. */
  longLines: number;
  /** The last line had no newline (Claude Code was writing it); it was still offered. */
  unterminatedTail: boolean;
}

// Line types and attachment types sit in a line's first ~120 bytes in 2.1.332.
const HEAD_BYTES = 200;

/**
 * Streams every line of a transcript that holds one of the needles, in file order, through the same
 * chunked pre-filter as `scanTranscript`: memory stays flat whatever the file's size.
 */
export async function forEachTranscriptLine(
  path: string,
  options: TranscriptLineOptions,
): Promise<TranscriptLineStats> {
  const totalBytes = statSync(path).size;
  const heads = (options.skipHeads ?? []).map((head) => Buffer.from(head));
  const stats = await forEachCandidateLine(path, {
    needles: options.needles.map((needle) => Buffer.from(needle)),
    skipLine:
      heads.length === 0
        ? undefined
        : (region, start, end) => {
            const head = region.subarray(start, Math.min(end, start + HEAD_BYTES));
            return heads.some((skip) => head.includes(skip));
          },
    onLine: options.onLine,
    onChunk: options.onProgress && ((bytesRead) => options.onProgress!(bytesRead, totalBytes)),
  });
  return {
    totalBytes,
    bytesRead: stats.bytesRead,
    longLines: stats.longLines,
    unterminatedTail: stats.unterminatedTail,
  };
}
