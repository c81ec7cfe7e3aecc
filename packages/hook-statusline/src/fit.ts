import { SEGMENT_SEPARATOR } from "./line.ts";

const ANSI_ESCAPE = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Terminal columns a line takes: escape sequences take none; every code point is counted as one. */
export function visibleWidth(text: string): number {
  return [...text.replace(ANSI_ESCAPE, "")].length;
}

/**
 * Fits a plain line into `columns`: drops whole segments from the end (the percentage comes first and
 * stays), then cuts with an ellipsis.
 */
export function fitLine(line: string, columns: number): string {
  if (columns <= 0) return "";
  const segments = line.split(SEGMENT_SEPARATOR);
  while (segments.length > 1 && visibleWidth(segments.join(SEGMENT_SEPARATOR)) > columns) segments.pop();
  const kept = segments.join(SEGMENT_SEPARATOR);
  if (visibleWidth(kept) <= columns) return kept;
  return `${[...kept]
    .slice(0, columns - 1)
    .join("")
    .trimEnd()}…`;
}

/** `COLUMNS` when it is a positive integer; Claude Code 2.1.332 sets it to the terminal's width in the TUI. */
export function columnsOf(value: string | undefined): number | undefined {
  const columns = Number(value);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}
