import { downsample, niceStep, shortTokens } from "./chart-scale.ts";
import { count } from "./format.ts";
import { escapeHtml } from "./html-escape.ts";
import type { ContextReport } from "./model.ts";

const WIDTH = 960;
const HEIGHT = 340;
const MARGIN = { top: 24, right: 24, bottom: 40, left: 64 };
const MAX_PATH_POINTS = 2_000;
const MAX_DOTS = 200;
export const USAGE_LINE_COLOR = "#1d4ed8";
export const AUTO_COMPACT_COLOR = "#dc2626";
export const COMPACTION_COLOR = "#d97706";

/** Context per request over the session, the auto-compact line, and each compaction marked where it fell. */
export function usageChart(report: ContextReport): string {
  const values = report.series.map((point) => point.contextTokens);
  const label = `Context tokens per request: ${values.length} requests, ${report.compactions.length} compactions`;
  const open = `<svg id="usage-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeHtml(label)}">`;
  if (values.length === 0) {
    return `${open}<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" class="empty">No response with usage in this transcript yet</text></svg>`;
  }
  const peak = Math.max(...values, ...report.compactions.map((compaction) => compaction.preTokens));
  const step = niceStep(Math.max(peak, report.autoCompactTokens ?? 0) * 1.05, 5);
  const top = Math.ceil((Math.max(peak, report.autoCompactTokens ?? 0) * 1.05) / step) * step || step;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  // Requests are spread evenly; a single request sits in the middle.
  const x = (index: number) => MARGIN.left + (values.length === 1 ? plotWidth / 2 : (index / (values.length - 1)) * plotWidth);
  const y = (tokens: number) => MARGIN.top + plotHeight - (tokens / top) * plotHeight;
  const parts: string[] = [open];

  for (let tick = 0; tick <= top; tick += step) {
    parts.push(
      `<line class="grid" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}"/>`,
      `<text class="tick" x="${MARGIN.left - 8}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end">${shortTokens(tick)}</text>`,
    );
  }
  parts.push(
    `<text class="axis-label" x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 8}" text-anchor="middle">request (1 – ${values.length})</text>`,
  );

  const points = downsample(values, MAX_PATH_POINTS);
  const line = points.map((point, i) => `${i === 0 ? "M" : "L"}${x(point.index).toFixed(1)},${y(point.value).toFixed(1)}`).join(" ");
  const base = y(0).toFixed(1);
  const area = `${line} L${x(points.at(-1)!.index).toFixed(1)},${base} L${x(points[0]!.index).toFixed(1)},${base} Z`;
  parts.push(`<path class="usage-area" d="${area}"/>`, `<path class="usage-line" d="${line}" fill="none" stroke="${USAGE_LINE_COLOR}" stroke-width="2.5"/>`);
  if (values.length <= MAX_DOTS) {
    for (const point of report.series) {
      const title = `request ${point.request}, turn ${point.turn}: ${count(point.contextTokens)} tokens`;
      parts.push(
        `<circle class="usage-point" data-request="${point.request}" data-tokens="${point.contextTokens}" cx="${x(point.request - 1).toFixed(1)}" cy="${y(point.contextTokens).toFixed(1)}" r="3.5" fill="${USAGE_LINE_COLOR}"><title>${title}</title></circle>`,
      );
    }
  }

  if (report.autoCompactTokens !== null) {
    const at = y(report.autoCompactTokens).toFixed(1);
    parts.push(
      `<line class="auto-compact" data-tokens="${report.autoCompactTokens}" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${at}" y2="${at}" stroke="${AUTO_COMPACT_COLOR}" stroke-width="2" stroke-dasharray="8 5"/>`,
      `<text class="auto-compact-label" x="${MARGIN.left + 6}" y="${(Number(at) - 6).toFixed(1)}" fill="${AUTO_COMPACT_COLOR}">auto-compact at ${count(report.autoCompactTokens)}</text>`,
    );
  }

  report.compactions.forEach((compaction, index) => {
    // Between the last request before it and the first after it.
    const position = Math.min(values.length - 1, Math.max(0, compaction.afterRequest - 0.5));
    const at = values.length === 1 ? x(0) : x(position);
    const text = `${compaction.trigger}: ${shortTokens(compaction.preTokens)} → ${shortTokens(compaction.postTokens)}`;
    // Labels near the right edge go to the left of their line.
    const onLeft = at > MARGIN.left + plotWidth * 0.75;
    parts.push(
      `<g class="compaction" data-index="${index + 1}" data-trigger="${escapeHtml(compaction.trigger)}" data-pre-tokens="${compaction.preTokens}" data-post-tokens="${compaction.postTokens}">`,
      `<line x1="${at.toFixed(1)}" x2="${at.toFixed(1)}" y1="${MARGIN.top}" y2="${base}" stroke="${COMPACTION_COLOR}" stroke-width="3"/>`,
      `<circle cx="${at.toFixed(1)}" cy="${y(compaction.preTokens).toFixed(1)}" r="4.5" fill="${COMPACTION_COLOR}"/>`,
      `<circle cx="${at.toFixed(1)}" cy="${y(compaction.postTokens).toFixed(1)}" r="4.5" fill="#fff" stroke="${COMPACTION_COLOR}" stroke-width="2"/>`,
      `<text x="${(onLeft ? at - 6 : at + 6).toFixed(1)}" y="${MARGIN.top + 14 + (index % 3) * 14}" text-anchor="${onLeft ? "end" : "start"}" fill="${COMPACTION_COLOR}">${escapeHtml(text)}</text>`,
      `<title>compaction ${index + 1} (${escapeHtml(compaction.trigger)}) after request ${compaction.afterRequest}: ${count(compaction.preTokens)} → ${count(compaction.postTokens)} tokens</title>`,
      "</g>",
    );
  });
  parts.push("</svg>");
  return parts.join("");
}
