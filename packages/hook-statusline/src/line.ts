import { fillTemplate, formatTokens, type UsageReading, usagePercents } from "@carryover/core";
import type { Sizes } from "./sizes.ts";

/** Segments of a format are separated by this; a segment left empty is dropped with its separator. */
export const SEGMENT_SEPARATOR = " · ";
export const UNKNOWN = "–";
// Below this share of the window (a capped auto-compact window: 167k of 1M) Claude Code's own percentage,
// of the window, reads very differently from ours (20% when compaction fires): both are shown. A plain
// 200k window compacts at 83% of it, close enough to show ours alone.
export const WINDOW_NOTE_BELOW_SHARE = 0.75;
// The model name comes from Claude Code's stdin; past this it is not a name and would be the whole line.
const MAX_MODEL_CHARS = 60;

function clip(text: string, maxChars: number): string {
  const chars = [...text.slice(0, maxChars * 2)];
  return chars.length <= maxChars ? chars.join("") : `${chars.slice(0, maxChars - 1).join("")}…`;
}

function percentText(percent: number): string {
  return `${Math.floor(percent)}%`;
}

/** The placeholder values for one reading; null (before the first response) shows "–" for what is unknown. */
export function lineValues(
  reading: UsageReading | null,
  sizes: Sizes,
  modelName: string | undefined,
): Record<string, string> {
  const limitTokens = sizes.autoCompactTokens ?? sizes.windowTokens;
  const values: Record<string, string> = {
    percent: UNKNOWN,
    used: UNKNOWN,
    limit: formatTokens(limitTokens),
    left: UNKNOWN,
    windowPercent: UNKNOWN,
    window: formatTokens(sizes.windowTokens),
    windowNote: "",
    model: clip(modelName ?? "", MAX_MODEL_CHARS),
  };
  if (!reading) return values;
  const percents = usagePercents(reading);
  values.percent = percentText(percents.autoCompactPercent ?? percents.windowPercent);
  values.used = formatTokens(reading.contextTokens);
  values.windowPercent = percentText(percents.windowPercent);
  if (percents.tokensToAutoCompact !== null) values.left = formatTokens(percents.tokensToAutoCompact);
  if (sizes.autoCompactTokens !== null && sizes.autoCompactTokens < sizes.windowTokens * WINDOW_NOTE_BELOW_SHARE) {
    values.windowNote = `${values.windowPercent} of ${values.window} window`;
  }
  return values;
}

export function renderLine(format: string, values: Record<string, string>): string {
  const filled = fillTemplate(format, values).replace(/[\r\n]+/g, " ");
  return filled
    .split(SEGMENT_SEPARATOR)
    .filter((segment) => segment.trim() !== "")
    .join(SEGMENT_SEPARATOR)
    .trim();
}
