import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { contextTokensOf, type UsageCounts } from "../claude/usage.ts";
import { parseTranscriptLine } from "./line.ts";

export interface TailUsage {
  contextTokens: number;
  model?: string | undefined;
  /** The line's own timestamp, when it has one. */
  atMs?: number | undefined;
  /** True when the newest fact is a compaction (the boundary's postTokens), not a response. */
  afterCompaction: boolean;
}

const FIRST_CHUNK_BYTES = 64 * 1024;
const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The context size after the newest response, read from the transcript's end: the last main-chain
 * assistant line with usage, or a newer compact_boundary's postTokens. Reads 64 KiB, doubling up
 * to `maxBytes`, so its cost does not grow with the transcript. Null when nothing is found.
 */
export function readTailUsage(path: string, maxBytes = DEFAULT_MAX_BYTES): TailUsage | null {
  return usageBefore(path, null, maxBytes);
}

/**
 * The context of the last main-chain response before byte `endOffset` (a summary line that has no
 * compact_boundary before it, 1.0.5x): what the session held when it compacted. Null when not found.
 */
export function readUsageBefore(path: string, endOffset: number, maxBytes = DEFAULT_MAX_BYTES): number | null {
  const found = usageBefore(path, endOffset, maxBytes);
  return found && !found.afterCompaction ? found.contextTokens : null;
}

function usageBefore(path: string, endOffset: number | null, maxBytes: number): TailUsage | null {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO nobody writes would block the whole process.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    const end = endOffset === null ? stat.size : Math.min(endOffset, stat.size);
    for (let chunk = FIRST_CHUNK_BYTES; ; chunk *= 2) {
      const length = Math.min(chunk, end, maxBytes);
      const buffer = Buffer.allocUnsafe(length);
      const read = readSync(fd, buffer, 0, length, end - length);
      const found = newestUsage(buffer.toString("utf8", 0, read), length === end);
      if (found || length === end || length >= maxBytes) return found;
    }
  } finally {
    closeSync(fd);
  }
}

function newestUsage(text: string, fromStart: boolean): TailUsage | null {
  const lines = text.split("\n");
  const first = fromStart ? 0 : 1;
  for (let i = lines.length - 1; i >= first; i--) {
    const raw = lines[i]!;
    const isBoundary = raw.includes('"compact_boundary"');
    if (!isBoundary && !(raw.includes('"assistant"') && raw.includes('"usage"'))) continue;
    const line = parseTranscriptLine(raw);
    if (line === null) continue;
    const atMs = typeof line.timestamp === "string" ? Date.parse(line.timestamp) || undefined : undefined;
    if (line.type === "system" && line.subtype === "compact_boundary") {
      const postTokens = line.compactMetadata?.postTokens;
      return { contextTokens: typeof postTokens === "number" ? postTokens : 0, atMs, afterCompaction: true };
    }
    const usage = line.message?.usage;
    const model = typeof line.message?.model === "string" ? line.message.model : undefined;
    if (line.type !== "assistant" || line.isSidechain || typeof usage !== "object" || !usage) continue;
    if (model === "<synthetic>") continue;
    return { contextTokens: contextTokensOf(usage as UsageCounts), model, atMs, afterCompaction: false };
  }
  return null;
}
