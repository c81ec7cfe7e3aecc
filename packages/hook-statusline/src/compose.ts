import { paint, type Tone } from "./color.ts";
import { fitLine, visibleWidth } from "./fit.ts";
import { SEGMENT_SEPARATOR } from "./line.ts";

export type ChainPosition = "before" | "after" | "above" | "below";

/** Our line before colour: fitting works on the plain text, colour goes on last. */
export interface OurLine {
  text: string;
  tone: Tone | null;
}

/** Between our line and a chained line that share a row. */
const CHAIN_SEPARATOR = " │ ";

/**
 * Places our line and the chained command's lines; `position` says where theirs go. Fitting to
 * `columns` only ever shortens ours: their output is theirs. When a shared row leaves ours no room for
 * its first segment, ours takes a row of its own.
 */
export function composeLines(
  ours: OurLine | null,
  theirs: readonly string[],
  position: ChainPosition,
  columns: number | undefined,
): string {
  if (!ours) return theirs.join("\n");
  const fit = (room: number | undefined) => paint(room === undefined ? ours.text : fitLine(ours.text, room), ours.tone);
  if (theirs.length === 0) return fit(columns);
  if (position === "above") return [...theirs, fit(columns)].join("\n");
  if (position === "below") return [fit(columns), ...theirs].join("\n");

  const [first, ...rest] = theirs as [string, ...string[]];
  const room = columns === undefined ? undefined : columns - visibleWidth(first) - CHAIN_SEPARATOR.length;
  const firstSegment = ours.text.split(SEGMENT_SEPARATOR)[0]!;
  if (room !== undefined && room < visibleWidth(firstSegment)) {
    return (position === "after" ? [fit(columns), ...theirs] : [...theirs, fit(columns)]).join("\n");
  }
  const shared =
    position === "after" ? `${fit(room)}${CHAIN_SEPARATOR}${first}` : `${first}${CHAIN_SEPARATOR}${fit(room)}`;
  return [shared, ...rest].join("\n");
}
