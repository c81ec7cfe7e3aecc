import { bytes, clock, count, percent, tokensOrUnknown } from "./format.ts";
import { escapeHtml } from "./html-escape.ts";
import { CATEGORY_LABELS, type ContextReport } from "./model.ts";
import { breakdownChart, CATEGORY_COLORS } from "./svg-breakdown.ts";
import { usageChart } from "./svg-usage.ts";

/** Marks a page as ours: `--html` replaces an existing file only when it carries this. */
export const HTML_GENERATOR = "carryover context";

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#0f172a;background:#fff;\
margin:0 auto;max-width:1000px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.path{color:#64748b;font-size:13px;word-break:break-all}
.headline{display:flex;gap:28px;flex-wrap:wrap;margin:16px 0}.headline div{min-width:180px}
.headline b{display:block;font-size:24px}.headline span{color:#64748b;font-size:13px}
table{border-collapse:collapse;width:100%;font-size:14px}\
th,td{padding:4px 8px;border-bottom:1px solid #e2e8f0;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}tr.part td{color:#64748b;font-size:13px}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}
svg{max-width:100%;height:auto;font:12px system-ui,sans-serif}
svg .grid{stroke:#e2e8f0}svg .tick,svg .axis-label,svg .category-value{fill:#475569}\
svg .usage-area{fill:#1d4ed8;fill-opacity:.08}
svg .category-label{fill:#0f172a;font-size:13px}svg .dominant{font-weight:700}
ul.advice li{margin:6px 0}.note,td.basis{color:#64748b;font-size:13px}`;

/** One self-contained page: inline CSS and SVG, no script, nothing fetched. */
export function renderHtml(report: ContextReport, generatedAtMs: number): string {
  const title = `Context of session ${report.sessionId ?? "?"}`;
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta name="generator" content="${HTML_GENERATOR}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    `<div class="path">${escapeHtml(report.transcriptPath)} · ${bytes(report.transcriptBytes)}` +
      `${report.model ? ` · ${escapeHtml(report.model)}` : ""}` +
      ` · generated ${new Date(generatedAtMs).toISOString()}</div>`,
    headline(report),
    "<h2>Usage over time</h2>",
    usageChart(report),
    '<p class="note">Context tokens of each request (input + cache creation + cache read of its response), ' +
      "with every compaction marked and the auto-compact point dashed.</p>",
    "<h2>What fills the context now</h2>",
    breakdownChart(report),
    categoryTable(report),
    largestTable(report),
    adviceList(report),
    turnsTable(report),
    compactionsTable(report),
    "</body></html>",
    "",
  ].join("\n");
}

function headline(report: ContextReport): string {
  const measured = report.measuredTokens === null ? "–" : count(report.measuredTokens);
  const level = report.autoCompactTokens === null ? "off" : percent(report.autoCompactPercent ?? 0);
  const cells = [
    [
      measured,
      report.measuredSource === "compaction"
        ? "tokens after the last compaction"
        : "tokens measured on the last response",
    ],
    [
      level,
      report.autoCompactTokens === null
        ? "auto-compaction"
        : `of the auto-compact point (${count(report.autoCompactTokens)})`,
    ],
    [count(report.estimatedTokens), "tokens estimated from the transcript text (≈4 chars a token)"],
    [
      String(report.compactions.length),
      `compactions in ${report.turns.length} turns, ${report.series.length} requests`,
    ],
  ];
  const cell = ([value, text]: string[]) => `<div><b>${value}</b><span>${escapeHtml(text!)}</span></div>`;
  return `<div class="headline">${cells.map(cell).join("")}</div>`;
}

/** A table: its header cells (`<th>…</th>` each) and its rows (`<tr>…</tr>` each). */
function table(id: string, header: string, rows: readonly string[]): string {
  return `<table id="${id}"><thead><tr>${header}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function categoryTable(report: ContextReport): string {
  const rows = report.categories.flatMap((category) => [
    `<tr><td><span class="swatch" style="background:${CATEGORY_COLORS[category.id]}"></span>` +
      `${escapeHtml(category.label)}${category.id === report.dominant ? " <b>(largest)</b>" : ""}</td>` +
      `<td class="n">${count(category.tokens)}</td><td class="n">${percent(category.percent)}</td>` +
      `<td class="basis">${escapeHtml(category.basis)}</td></tr>`,
    ...category.parts.map(
      (part) =>
        `<tr class="part"><td>&nbsp;&nbsp;${escapeHtml(part.label)}</td><td class="n">${count(part.tokens)}</td>` +
        "<td></td><td></td></tr>",
    ),
  ]);
  const header = '<th>Category</th><th class="n">Tokens (est.)</th><th class="n">Share</th><th>Rests on</th>';
  return table("categories", header, rows);
}

function largestTable(report: ContextReport): string {
  if (report.largestItems.length === 0) return "";
  const rows = report.largestItems.map(
    (item) =>
      `<tr><td class="n">${count(item.tokens)}</td><td>${escapeHtml(CATEGORY_LABELS[item.category])}</td>` +
      `<td>${escapeHtml(item.label)}</td></tr>`,
  );
  return `<h2>Largest items</h2>${table("largest", '<th class="n">Tokens</th><th>Category</th><th>Item</th>', rows)}`;
}

function adviceList(report: ContextReport): string {
  const items =
    report.advice.length === 0
      ? ["<li>Nothing stands out.</li>"]
      : report.advice.map((item) => `<li>${escapeHtml(item.text)}</li>`);
  return `<h2>What to do</h2><ul class="advice">${items.join("")}</ul>`;
}

function turnsTable(report: ContextReport): string {
  if (report.turns.length === 0) return "";
  const rows = report.turns.map(
    (turn) =>
      `<tr><td class="n">${turn.turn}</td><td class="n">${turn.requests}</td>` +
      `<td class="n">${turn.endContextTokens === null ? "–" : count(turn.endContextTokens)}</td>` +
      `<td class="n">${count(turn.peakContextTokens)}</td><td class="n">${count(turn.outputTokens)}</td>` +
      `<td>${escapeHtml(turn.prompt || "(before the first prompt)")}</td></tr>`,
  );
  const header =
    '<th class="n">Turn</th><th class="n">Requests</th><th class="n">Context at end</th>' +
    '<th class="n">Peak</th><th class="n">Output</th><th>Prompt</th>';
  return `<h2>Turns</h2>${table("turns", header, rows)}`;
}

function compactionsTable(report: ContextReport): string {
  if (report.compactions.length === 0) return "";
  const rows = report.compactions.map(
    (compaction, index) =>
      `<tr><td class="n">${index + 1}</td>` +
      `<td>${escapeHtml(compaction.trigger)}${compaction.boundary ? "" : " (no boundary line)"}</td>` +
      `<td class="n">${compaction.afterRequest}</td>` +
      `<td class="n">${tokensOrUnknown(compaction.preTokens)}</td>` +
      `<td class="n">${tokensOrUnknown(compaction.postTokens)}</td><td>${clock(compaction.atMs)}</td></tr>`,
  );
  const header =
    '<th class="n">#</th><th>Trigger</th><th class="n">After request</th>' +
    '<th class="n">Before</th><th class="n">After</th><th>At (UTC)</th>';
  return `<h2>Compactions</h2>${table("compactions", header, rows)}`;
}
