import { bar, sparkline } from "./bars.ts";
import { bytes, clock, count, percent, tokensOrUnknown } from "./format.ts";
import { CATEGORY_LABELS, type ContextReport } from "./model.ts";
import { type Paint, paint } from "./paint.ts";
import { workLines } from "./render-work.ts";

export interface TerminalOptions {
  color: boolean;
  /** Terminal columns; the report fits 100 at most. */
  columns?: number | undefined;
  /** Rows of the per-turn table (the newest); --json and --html have them all. */
  maxTurns?: number | undefined;
}

const BAR_CELLS = 24;
const PARTS_SHOWN = 5;
const DEFAULT_MAX_TURNS = 15;
const MAX_COLUMNS = 100;

/** The report as aligned text: the breakdown with bars, the largest items, usage per turn, compactions, advice. */
export function renderTerminal(report: ContextReport, options: TerminalOptions): string {
  const style = paint(options.color);
  const columns = Math.max(60, Math.min(MAX_COLUMNS, options.columns ?? MAX_COLUMNS));
  const title = [
    style.bold(`carryover context · session ${report.sessionId ?? "?"}${report.model ? ` · ${report.model}` : ""}`),
    style.dim(`${report.transcriptPath} (${bytes(report.transcriptBytes)})`),
  ];
  const sections = [
    title,
    headline(report, style, columns),
    breakdown(report, style),
    bases(report, style, columns),
    largest(report, style, columns),
    overTime(report, style, columns, options.maxTurns ?? DEFAULT_MAX_TURNS),
    workLines(report.work, report.cwd, style, columns),
    advice(report, style, columns),
  ];
  return `${sections
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join("\n"))
    .join("\n\n")}\n`;
}

const HEADLINE_INDENT = 13;

function headline(report: ContextReport, style: Paint, columns: number): string[] {
  const field = (name: string, text: string) => {
    const [first, ...rest] = wrap(text, columns - HEADLINE_INDENT);
    return [
      `${style.bold(name.padEnd(HEADLINE_INDENT - 2))}  ${first}`,
      ...rest.map((line) => " ".repeat(HEADLINE_INDENT) + line),
    ];
  };
  const lines: string[] = [];
  if (report.measuredTokens === null) {
    lines.push(...field("Context now", "no response with usage in this transcript yet"));
  } else {
    const source =
      report.measuredSource === "compaction" ? "after the last compaction" : "measured on the last response";
    const level =
      report.autoCompactTokens === null
        ? "auto-compaction off"
        : `${percent(report.autoCompactPercent ?? 0)} of the auto-compact point (${count(report.autoCompactTokens)})`;
    const window = count(report.modelWindowTokens);
    const text = `${count(report.measuredTokens)} tokens ${source} · ${level} · window ${window}`;
    const colored = levelColor(style, report.autoCompactPercent ?? 0);
    lines.push(
      ...field("Context now", text).map((line) =>
        line.replace(percent(report.autoCompactPercent ?? 0), (match) => colored(match)),
      ),
    );
  }
  const how =
    report.systemSource === "first-response" ? "; system prompt and tools from the first response's usage" : "";
  const estimated = `${count(report.estimatedTokens)} tokens from the transcript text since the last compaction`;
  lines.push(...field("Estimated", `${estimated} (≈4 characters a token${how})`));
  return lines;
}

function levelColor(style: Paint, levelPercent: number): (text: string) => string {
  return levelPercent >= 85 ? style.alarm : levelPercent >= 50 ? style.warn : style.good;
}

function breakdown(report: ContextReport, style: Paint): string[] {
  const labelWidth = Math.max(...report.categories.map((category) => category.label.length + 11), 24);
  const tokensWidth = Math.max(6, ...report.categories.map((category) => count(category.tokens).length));
  const lines = [style.bold(`${"Category".padEnd(labelWidth)}  ${"Tokens".padStart(tokensWidth)}   Share`)];
  const largestTokens = Math.max(1, ...report.categories.map((category) => category.tokens));
  for (const category of report.categories) {
    const isDominant = category.id === report.dominant;
    const label = `${category.label}${isDominant ? " ◀ largest" : ""}`.padEnd(labelWidth);
    const row = `${label}  ${count(category.tokens).padStart(tokensWidth)}  ${percent(category.percent).padStart(6)}  `;
    const cells = style.accent(bar(category.tokens / largestTokens, BAR_CELLS));
    lines.push(isDominant ? style.bold(row) + cells : row + cells);
    const shown = category.parts.slice(0, PARTS_SHOWN);
    for (const part of shown) {
      const partLabel = truncate(part.label, labelWidth - 2).padEnd(labelWidth - 2);
      lines.push(style.dim(`  ${partLabel}  ${count(part.tokens).padStart(tokensWidth)}`));
    }
    if (category.parts.length > shown.length) lines.push(style.dim(`  … ${category.parts.length - shown.length} more`));
  }
  return lines;
}

/** What each estimate rests on, for the categories that hold anything. */
function bases(report: ContextReport, style: Paint, columns: number): string[] {
  const lines = [style.bold("What the estimates rest on")];
  for (const category of report.categories.filter((entry) => entry.tokens > 0)) {
    const [first, ...rest] = wrap(`${category.label}: ${category.basis}`, columns - 4);
    lines.push(style.dim(`  ${first}`), ...rest.map((line) => style.dim(`    ${line}`)));
  }
  return lines.length > 1 ? lines : [];
}

function largest(report: ContextReport, style: Paint, columns: number): string[] {
  if (report.largestItems.length === 0) return [];
  const tokensWidth = Math.max(...report.largestItems.map((item) => count(item.tokens).length));
  const categoryWidth = Math.max(...report.largestItems.map((item) => CATEGORY_LABELS[item.category].length));
  const lines = [style.bold("Largest items")];
  for (const item of report.largestItems) {
    const category = CATEGORY_LABELS[item.category].padEnd(categoryWidth);
    const prefix = `  ${count(item.tokens).padStart(tokensWidth)}  ${category}  `;
    lines.push(prefix + truncate(item.label, columns - prefix.length));
  }
  return lines;
}

function overTime(report: ContextReport, style: Paint, columns: number, maxTurns: number): string[] {
  const { series, turns, compactions } = report;
  const limit =
    report.autoCompactTokens === null ? "auto-compaction off" : `auto-compact at ${count(report.autoCompactTokens)}`;
  const compacted = `${compactions.length} compaction${compactions.length === 1 ? "" : "s"}`;
  const lines = [style.bold(`Over time: ${series.length} requests, ${turns.length} turns, ${compacted} (${limit})`)];
  if (series.length > 0) {
    const values = series.map((point) => point.contextTokens);
    const peak = Math.max(...values);
    const top = Math.max(peak, report.autoCompactTokens ?? 0);
    const line = sparkline(
      values,
      columns - 24,
      top,
      compactions.map((compaction) => compaction.afterRequest),
    );
    lines.push(`  ${style.accent(line)}  ${style.dim(`peak ${count(peak)}`)}`);
    if (compactions.length > 0)
      lines.push(style.dim("  ┃ = compaction; height against the auto-compact point or the peak"));
  }
  if (turns.length > 0) {
    const shown = turns.slice(-maxTurns);
    lines.push(
      style.bold(
        `  ${"Turn".padStart(5)}  ${"Requests".padStart(8)}  ${"Context at end".padStart(14)}` +
          `  ${"Peak".padStart(9)}  ${"Output".padStart(7)}  Prompt`,
      ),
    );
    if (shown.length < turns.length)
      lines.push(style.dim(`  … ${turns.length - shown.length} earlier turns (--json or --html show all)`));
    for (const turn of shown) {
      const atEnd = turn.endContextTokens === null ? "-" : count(turn.endContextTokens);
      const row =
        `  ${String(turn.turn).padStart(5)}  ${String(turn.requests).padStart(8)}  ${atEnd.padStart(14)}` +
        `  ${count(turn.peakContextTokens).padStart(9)}  ${count(turn.outputTokens).padStart(7)}  `;
      lines.push(row + truncate(turn.prompt || "(before the first prompt)", columns - row.length));
    }
  }
  if (compactions.length > 0) {
    lines.push(style.bold("  Compactions"));
    compactions.forEach((compaction, index) => {
      const at = clock(compaction.atMs);
      const unmarked = compaction.boundary ? "" : style.dim(" (no boundary line)");
      const when = at ? `  ${style.dim(`${at} UTC`)}` : "";
      const tokens = `${tokensOrUnknown(compaction.preTokens)} → ${tokensOrUnknown(compaction.postTokens)} tokens`;
      const what = `${String(index + 1).padStart(3)}. ${compaction.trigger.padEnd(7)}`;
      lines.push(`  ${what} after request ${compaction.afterRequest}: ${tokens}${unmarked}${when}`);
    });
  }
  return lines;
}

function advice(report: ContextReport, style: Paint, columns: number): string[] {
  const lines = [style.bold("What to do")];
  if (report.advice.length === 0) lines.push("  Nothing stands out.");
  for (const item of report.advice) {
    const [first, ...rest] = wrap(item.text, columns - 4);
    lines.push(`  ${style.warn("•")} ${first}`, ...rest.map((line) => `    ${line}`));
  }
  return lines;
}

function truncate(text: string, maxChars: number): string {
  if (maxChars <= 1) return "";
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    // A separator stays at the end of the line it follows.
    if (line && word === "·") line += " ·";
    else if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
