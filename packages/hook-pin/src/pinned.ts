import { join, resolve } from "node:path";
import { carryoverRoot, type Env, errorMessage, readFileHead } from "@carryover/core";

/** One pinned file as it will be injected. */
export interface PinnedText {
  path: string;
  text: string;
  totalBytes: number;
  /** Bytes of the file left out by the cap (0 when it fits). */
  cutBytes: number;
}

export interface PinnedRead {
  pins: PinnedText[];
  /** One line per file that could not be used (a symlink, not a regular file, unreadable). */
  problems: string[];
}

/** The project's pinned context: `<project>/.claude/carryover/pinned.md`. */
export function projectPinnedPath(projectDir: string): string {
  return join(projectDir, ".claude", "carryover", "pinned.md");
}

/** The user's pinned context for every project: `~/.claude/carryover/pinned.md`. */
export function userPinnedPath(env: Env): string {
  return join(carryoverRoot(env), "pinned.md");
}

/** The project's pinned.md, then the user's; one path when they are the same file (a session in $HOME). */
export function pinnedPaths(projectDir: string, env: Env): string[] {
  return [...new Set([projectPinnedPath(resolve(projectDir)), userPinnedPath(env)])];
}

// A UTF-8 sequence is at most 4 bytes: reading 3 past the cap shows whether the cap splits one.
const LOOKAHEAD_BYTES = 3;

/**
 * Reads the pinned files in order, sharing one byte budget: what does not fit is cut at a line break
 * (or a character boundary) and counted. Empty and whitespace-only files are skipped. Each read is
 * bounded, so a huge file costs no more than a small one.
 */
export function readPinned(paths: readonly string[], maxBytes: number): PinnedRead {
  const pins: PinnedText[] = [];
  const problems: string[] = [];
  let budgetBytes = maxBytes;
  for (const path of paths) {
    let head: ReturnType<typeof readFileHead>;
    try {
      head = readFileHead(path, budgetBytes + LOOKAHEAD_BYTES);
    } catch (error) {
      problems.push(errorMessage(error));
      continue;
    }
    if (!head || head.bytes.toString("utf8").trim() === "") continue;
    const keptBytes = head.totalBytes <= budgetBytes ? head.totalBytes : cutPoint(head.bytes, budgetBytes);
    const text = head.bytes.subarray(0, keptBytes).toString("utf8").trim();
    pins.push({ path, text, totalBytes: head.totalBytes, cutBytes: head.totalBytes - keptBytes });
    budgetBytes -= keptBytes;
  }
  return { pins, problems };
}

/** The largest cut ≤ `maxBytes` that splits no character, at the last line break when one is in the second half. */
function cutPoint(bytes: Buffer, maxBytes: number): number {
  let cut = Math.min(maxBytes, bytes.length);
  while (cut > 0 && cut < bytes.length && (bytes[cut]! & 0xc0) === 0x80) cut--;
  if (cut === 0) return 0;
  const lineEnd = bytes.subarray(0, cut).lastIndexOf(0x0a);
  return lineEnd >= cut / 2 ? lineEnd + 1 : cut;
}
