import { count, percent } from "./format.ts";
import { escapeHtml } from "./html-escape.ts";
import type { CategoryId, ContextReport } from "./model.ts";

const WIDTH = 960;
const ROW_HEIGHT = 34;
const LABEL_WIDTH = 230;
const VALUE_WIDTH = 150;

export const CATEGORY_COLORS: Readonly<Record<CategoryId, string>> = {
  systemPrompt: "#64748b",
  tools: "#0891b2",
  mcpTools: "#7c3aed",
  memoryFiles: "#16a34a",
  skills: "#ca8a04",
  messages: "#2563eb",
  toolResults: "#e11d48",
};

/** One bar per category, against the largest, with tokens and share. */
export function breakdownChart(report: ContextReport): string {
  const height = report.categories.length * ROW_HEIGHT + 12;
  const largest = Math.max(1, ...report.categories.map((category) => category.tokens));
  const barSpace = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const parts = [
    `<svg id="breakdown-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}"` +
      ` width="${WIDTH}" height="${height}" role="img" aria-label="Estimated context by category">`,
  ];
  report.categories.forEach((category, row) => {
    const top = 6 + row * ROW_HEIGHT;
    const width = category.tokens > 0 ? Math.max(2, (category.tokens / largest) * barSpace) : 0;
    const dominant = category.id === report.dominant ? " dominant" : "";
    parts.push(
      `<text class="category-label${dominant}" x="${LABEL_WIDTH - 10}" y="${top + 21}" text-anchor="end">` +
        `${escapeHtml(category.label)}</text>`,
      `<rect class="category-bar${dominant}" data-category="${category.id}" data-tokens="${category.tokens}"` +
        ` x="${LABEL_WIDTH}" y="${top + 5}" width="${width.toFixed(1)}" height="${ROW_HEIGHT - 10}" rx="3"` +
        ` fill="${CATEGORY_COLORS[category.id]}">` +
        `<title>${escapeHtml(category.label)}: ${count(category.tokens)} tokens</title></rect>`,
      `<text class="category-value" x="${LABEL_WIDTH + width + 8}" y="${top + 21}">` +
        `${count(category.tokens)} · ${percent(category.percent)}</text>`,
    );
  });
  parts.push("</svg>");
  return parts.join("");
}
