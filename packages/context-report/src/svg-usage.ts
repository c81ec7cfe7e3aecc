import { downsample, niceStep, shortTokens } from "./chart-scale.ts";
import { count, tokensOrUnknown } from "./format.ts";
import { escapeHtml } from "./html-escape.ts";
import type { ContextReport } from "./model.ts";

const WIDTH = 960;
const PLOT_HEIGHT = 276;
const MARGIN = { right: 24, bottom: 40, left: 64 };
const MAX_PATH_POINTS = 2_000;
const MAX_DOTS = 200;
// Compaction labels sit in rows above the plot, placed so that none overlaps another or leaves the chart.
const LABEL_ROW_PX = 16;
const MAX_LABEL_ROWS = 4;
const LABEL_GAP_PX = 10;
const EDGE_PX = 4;
// Wider than the 12 px system-ui average, so an estimate never falls short of the rendered text.
const CHAR_PX = 7.4;
export const USAGE_LINE_COLOR = "#1d4ed8";
export const AUTO_COMPACT_COLOR = "#dc2626";
export const COMPACTION_COLOR = "#d97706";

interface PlacedLabel {
  x: number;
  anchor: "start" | "end";
  row: number;
  text: string;
}

/** Rows for labels anchored at `xs`: each goes right of its line, else left, in the first row where it fits. */
export function placeLabels(
  items: ReadonlyArray<{ x: number; texts: readonly string[] }>,
  width: number,
): Array<PlacedLabel | null> {
  const rows: Array<Array<[number, number]>> = [];
  const fits = (row: number, from: number, to: number) =>
    (rows[row] ?? []).every(([a, b]) => to + LABEL_GAP_PX <= a || from >= b + LABEL_GAP_PX);
  return items.map(({ x, texts }) => {
    for (const text of texts) {
      const size = text.length * CHAR_PX;
      const sides: Array<[number, number, "start" | "end", number]> = [
        [x + 6, x + 6 + size, "start", x + 6],
        [x - 6 - size, x - 6, "end", x - 6],
      ];
      for (let row = 0; row < MAX_LABEL_ROWS; row++) {
        for (const [from, to, anchor, at] of sides) {
          if (from < EDGE_PX || to > width - EDGE_PX || !fits(row, from, to)) continue;
          const taken = rows[row] ?? [];
          rows[row] = taken;
          taken.push([from, to]);
          return { x: at, anchor, row, text };
        }
      }
    }
    return null;
  });
}

/** Context per request over the session, the auto-compact line, and each compaction marked where it fell. */
export function usageChart(report: ContextReport): string {
  const values = report.series.map((point) => point.contextTokens);
  const label = `Context tokens per request: ${values.length} requests, ${report.compactions.length} compactions`;
  const svg = (height: number) =>
    `<svg id="usage-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}"` +
    ` width="${WIDTH}" height="${height}" role="img" aria-label="${escapeHtml(label)}">`;
  if (values.length === 0) {
    const height = PLOT_HEIGHT + MARGIN.bottom;
    return (
      `${svg(height)}<text x="${WIDTH / 2}" y="${height / 2}" text-anchor="middle" class="empty">` +
      "No response with usage in this transcript yet</text></svg>"
    );
  }
  const peak = Math.max(...values, ...report.compactions.map((compaction) => compaction.preTokens ?? 0));
  const step = niceStep(Math.max(peak, report.autoCompactTokens ?? 0) * 1.05, 5);
  const top = Math.ceil((Math.max(peak, report.autoCompactTokens ?? 0) * 1.05) / step) * step || step;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  // Requests are spread evenly; a single request sits in the middle.
  const x = (index: number) =>
    MARGIN.left + (values.length === 1 ? plotWidth / 2 : (index / (values.length - 1)) * plotWidth);
  // Between the last request before a compaction and the first after it.
  const compactionX = (afterRequest: number) =>
    values.length === 1 ? x(0) : x(Math.min(values.length - 1, Math.max(0, afterRequest - 0.5)));
  const labels = placeLabels(
    report.compactions.map((compaction, index) => ({
      x: compactionX(compaction.afterRequest),
      texts: [
        `${compaction.trigger}: ` +
          `${shortTokensOrUnknown(compaction.preTokens)} → ${shortTokensOrUnknown(compaction.postTokens)}`,
        `#${index + 1}`,
      ],
    })),
    WIDTH,
  );
  const rows = Math.max(1, ...labels.map((placed) => (placed ? placed.row + 1 : 0)));
  const plotTop = 12 + rows * LABEL_ROW_PX;
  const height = plotTop + PLOT_HEIGHT + MARGIN.bottom;
  const y = (tokens: number) => plotTop + PLOT_HEIGHT - (tokens / top) * PLOT_HEIGHT;
  const parts: string[] = [svg(height)];

  for (let tick = 0; tick <= top; tick += step) {
    const at = y(tick).toFixed(1);
    parts.push(
      `<line class="grid" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${at}" y2="${at}"/>`,
      `<text class="tick" x="${MARGIN.left - 8}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end">` +
        `${shortTokens(tick)}</text>`,
    );
  }
  parts.push(
    `<text class="axis-label" x="${MARGIN.left + plotWidth / 2}" y="${height - 8}" text-anchor="middle">` +
      `request (1 – ${values.length})</text>`,
  );

  const points = downsample(values, MAX_PATH_POINTS);
  const line = points
    .map((point, i) => `${i === 0 ? "M" : "L"}${x(point.index).toFixed(1)},${y(point.value).toFixed(1)}`)
    .join(" ");
  const base = y(0).toFixed(1);
  const area = `${line} L${x(points.at(-1)!.index).toFixed(1)},${base} L${x(points[0]!.index).toFixed(1)},${base} Z`;
  parts.push(
    `<path class="usage-area" d="${area}"/>`,
    `<path class="usage-line" d="${line}" fill="none" stroke="${USAGE_LINE_COLOR}" stroke-width="2.5"/>`,
  );
  if (values.length <= MAX_DOTS) {
    for (const point of report.series) {
      const title = `request ${point.request}, turn ${point.turn}: ${count(point.contextTokens)} tokens`;
      parts.push(
        `<circle class="usage-point" data-request="${point.request}" data-tokens="${point.contextTokens}"` +
          ` cx="${x(point.request - 1).toFixed(1)}" cy="${y(point.contextTokens).toFixed(1)}" r="3.5"` +
          ` fill="${USAGE_LINE_COLOR}"><title>${title}</title></circle>`,
      );
    }
  }

  if (report.autoCompactTokens !== null) {
    const at = y(report.autoCompactTokens).toFixed(1);
    parts.push(
      `<line class="auto-compact" data-tokens="${report.autoCompactTokens}"` +
        ` x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${at}" y2="${at}"` +
        ` stroke="${AUTO_COMPACT_COLOR}" stroke-width="2" stroke-dasharray="8 5"/>`,
      `<text class="auto-compact-label" x="${WIDTH - MARGIN.right - 6}" y="${(Number(at) - 6).toFixed(1)}"` +
        ` text-anchor="end" fill="${AUTO_COMPACT_COLOR}">auto-compact at ${count(report.autoCompactTokens)}</text>`,
    );
  }

  report.compactions.forEach((compaction, index) => {
    const at = compactionX(compaction.afterRequest).toFixed(1);
    const placed = labels[index];
    const figures = `${tokensOrUnknown(compaction.preTokens)} → ${tokensOrUnknown(compaction.postTokens)} tokens`;
    const unmarked = compaction.boundary ? "" : ", no boundary line";
    parts.push(
      `<g class="compaction" data-index="${index + 1}" data-trigger="${escapeHtml(compaction.trigger)}"` +
        ` data-pre-tokens="${compaction.preTokens ?? ""}" data-post-tokens="${compaction.postTokens ?? ""}">`,
      `<line x1="${at}" x2="${at}" y1="${plotTop - 4}" y2="${base}" stroke="${COMPACTION_COLOR}" stroke-width="3"/>`,
      ...(compaction.preTokens === null
        ? []
        : [`<circle cx="${at}" cy="${y(compaction.preTokens).toFixed(1)}" r="4.5" fill="${COMPACTION_COLOR}"/>`]),
      ...(compaction.postTokens === null
        ? []
        : [
            `<circle cx="${at}" cy="${y(compaction.postTokens).toFixed(1)}" r="4.5" fill="#fff"` +
              ` stroke="${COMPACTION_COLOR}" stroke-width="2"/>`,
          ]),
      ...(placed
        ? [
            `<text class="compaction-label" x="${placed.x.toFixed(1)}" y="${12 + placed.row * LABEL_ROW_PX + 10}"` +
              ` text-anchor="${placed.anchor}" fill="${COMPACTION_COLOR}">${escapeHtml(placed.text)}</text>`,
          ]
        : []),
      `<title>compaction ${index + 1} (${escapeHtml(compaction.trigger)}${unmarked})` +
        ` after request ${compaction.afterRequest}: ${figures}</title>`,
      "</g>",
    );
  });
  parts.push("</svg>");
  return parts.join("");
}

function shortTokensOrUnknown(value: number | null): string {
  return value === null ? "?" : shortTokens(value);
}
