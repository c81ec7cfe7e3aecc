import { readFileNoFollow } from "@carryover/core";

// Claude Code 2.1.332 loads MEMORY.md's first 200 lines, then cuts that to the whole lines that fit in
// 25,000 characters (measured: "limit: 24.4KB", counted in characters, not UTF-8 bytes; trailing
// blank lines do not count). What is cut is the end: the newest entries.
const MEMORY_INDEX_MAX_LINES = 200;
const MEMORY_INDEX_MAX_CHARS = 25_000;

export interface MemoryIndexLoad {
  lines: number;
  chars: number;
  /** The higher of lines and characters, as a percent of its limit. */
  percent: number;
  /** Which limit `percent` is about. */
  limitedBy: "lines" | "chars";
  /** Lines Claude Code loads (the first `loadedLines`). */
  loadedLines: number;
  /** Lines it does not load, 1-based numbers and their text, first dropped first. */
  dropped: { line: number; text: string }[];
}

/** What Claude Code loads of a MEMORY.md text, and what it drops. */
export function measureMemoryIndex(text: string): MemoryIndexLoad {
  const content = text.trimEnd();
  const lines = content === "" ? [] : content.split("\n");
  let loadedLines = Math.min(lines.length, MEMORY_INDEX_MAX_LINES);
  let used = 0;
  for (let index = 0; index < loadedLines; index++) {
    used += lines[index]!.length + 1;
    if (used > MEMORY_INDEX_MAX_CHARS) {
      loadedLines = index;
      break;
    }
  }
  const linePercent = (lines.length / MEMORY_INDEX_MAX_LINES) * 100;
  const charPercent = (content.length / MEMORY_INDEX_MAX_CHARS) * 100;
  return {
    lines: lines.length,
    chars: content.length,
    percent: Math.max(linePercent, charPercent),
    limitedBy: linePercent >= charPercent ? "lines" : "chars",
    loadedLines,
    dropped: lines.slice(loadedLines).map((line, offset) => ({ line: loadedLines + offset + 1, text: line })),
  };
}

export interface MemoryIndexCheck extends MemoryIndexLoad {
  path: string;
  /** At or past `headroomPercent` of a limit, or already dropping lines. */
  warn: boolean;
}

/**
 * Measures a MEMORY.md against what Claude Code loads. Null when there is none. Throws when it is a symlink
 * (carryover does not follow them).
 */
export function checkMemoryIndex(path: string, headroomPercent: number): MemoryIndexCheck | null {
  const text = readFileNoFollow(path);
  if (text === null) return null;
  const load = measureMemoryIndex(text);
  return { ...load, path, warn: load.dropped.length > 0 || load.percent >= headroomPercent };
}

const SHOWN_DROPPED_LINES = 5;
const SHOWN_LINE_CHARS = 80;

/** What to tell the user about a check that warns: where it stands, exactly what is or will be lost, what to do. */
export function memoryIndexWarning(check: MemoryIndexCheck): string {
  const max = MEMORY_INDEX_MAX_CHARS.toLocaleString("en-US");
  const chars = `${check.chars.toLocaleString("en-US")} of ${max} characters`;
  const size = `${check.lines} of ${MEMORY_INDEX_MAX_LINES} lines, ${chars}`;
  const advice =
    "Move detail into topic files in the same directory and keep one short index line per memory in MEMORY.md.";
  if (check.dropped.length === 0) {
    const limit =
      check.limitedBy === "lines"
        ? `line ${MEMORY_INDEX_MAX_LINES}`
        : `${MEMORY_INDEX_MAX_CHARS.toLocaleString("en-US")} characters`;
    const where = `MEMORY.md is at ${Math.floor(check.percent)}% of what Claude Code loads (${size}): ${check.path}.`;
    return `${where} Past ${limit}, the newest lines stop being loaded, silently. ${advice}`;
  }
  const first = check.dropped[0]!.line;
  const last = check.dropped.at(-1)!.line;
  const shown = check.dropped.slice(0, SHOWN_DROPPED_LINES).map(({ line, text }) => {
    const shownText = text.length > SHOWN_LINE_CHARS ? `${text.slice(0, SHOWN_LINE_CHARS)}…` : text;
    return `  ${line}: ${shownText}`;
  });
  const more =
    check.dropped.length > SHOWN_DROPPED_LINES ? [`  … and ${check.dropped.length - SHOWN_DROPPED_LINES} more`] : [];
  const range = first === last ? `line ${first} is` : `lines ${first}–${last} are`;
  return [
    `MEMORY.md is over what Claude Code loads (${size}): ${range} not loaded into any session: ${check.path}`,
    ...shown,
    ...more,
    advice,
  ].join("\n");
}
