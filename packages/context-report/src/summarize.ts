import {
  autoCompactTokens,
  type Env,
  isSafeSessionId,
  loadReading,
  modelWindowTokens,
  openSession,
  readAutoCompactSettings,
} from "@carryover/core";
import { adviseOn } from "./advice.ts";
import type { CollectedContext } from "./collector.ts";
import { count } from "./format.ts";
import {
  CATEGORY_LABELS,
  CATEGORY_ORDER,
  type CategoryEstimate,
  type CategoryId,
  type ContextItem,
  type ContextReport,
  type Contribution,
  type WorkRecord,
} from "./model.ts";
import { CHARS_PER_TOKEN, estimateTokens } from "./tokens.ts";

export interface ReportSettings {
  env: Env;
  /** The model window; 0 takes the statusline's last reading for the session, else guesses from the model. */
  contextWindowTokens?: number | undefined;
  /** How many of the largest items to list. */
  largestItems?: number | undefined;
}

export interface TranscriptSource {
  path: string;
  bytes: number;
  /** What the session did since its last compaction (core's reading of the same transcript). */
  work: WorkRecord;
}

const DEFAULT_LARGEST_ITEMS = 10;

/** Sizes what was collected, finds the dominant category and the largest items, places it against auto-compaction. */
export function summarize(
  collected: CollectedContext,
  source: TranscriptSource,
  settings: ReportSettings,
): ContextReport {
  const { contributions: system, systemSource, systemBasis } = systemContributions(collected);
  const totals = new Map<CategoryId, { tokens: number; parts: Map<string, number> }>();
  const items: ContextItem[] = [];
  for (const contribution of [...system, ...collected.contributions]) {
    const tokens = estimateTokens(contribution.chars);
    if (tokens === 0) continue;
    const total = totals.get(contribution.category) ?? { tokens: 0, parts: new Map() };
    total.tokens += tokens;
    if (contribution.part !== undefined)
      total.parts.set(contribution.part, (total.parts.get(contribution.part) ?? 0) + tokens);
    totals.set(contribution.category, total);
    items.push({ category: contribution.category, label: contribution.label, tokens });
  }
  const estimatedTokens = [...totals.values()].reduce((sum, total) => sum + total.tokens, 0);
  const categories: CategoryEstimate[] = CATEGORY_ORDER.map((id) => {
    const total = totals.get(id);
    const tokens = total?.tokens ?? 0;
    const parts = [...(total?.parts ?? [])]
      .map(([label, partTokens]) => ({ label, tokens: partTokens }))
      .sort((a, b) => b.tokens - a.tokens);
    const basis = id === "systemPrompt" ? systemBasis : BASES[id];
    return { id, label: CATEGORY_LABELS[id], tokens, basis, percent: percentOf(tokens, estimatedTokens), parts };
  });
  const dominant =
    estimatedTokens > 0
      ? categories.reduce((best, category) => (category.tokens > best.tokens ? category : best)).id
      : null;
  const largestItems = items
    .sort((a, b) => b.tokens - a.tokens)
    .slice(0, settings.largestItems ?? DEFAULT_LARGEST_ITEMS);

  const measured = collected.series.measured();
  const windowTokens = modelWindow(collected, settings);
  const autoCompact = autoCompactTokens(
    windowTokens,
    settings.env,
    readAutoCompactSettings(settings.env, collected.cwd ?? undefined),
  );
  const report: ContextReport = {
    transcriptPath: source.path,
    transcriptBytes: source.bytes,
    sessionId: collected.sessionId,
    cwd: collected.cwd,
    model: collected.model,
    measuredTokens: measured?.tokens ?? null,
    measuredSource: measured?.source ?? null,
    estimatedTokens,
    systemSource,
    work: source.work,
    modelWindowTokens: windowTokens,
    autoCompactTokens: autoCompact,
    autoCompactPercent: measured && autoCompact ? percentOf(measured.tokens, autoCompact) : null,
    categories,
    dominant,
    largestItems,
    series: collected.series.points,
    turns: collected.series.turns,
    compactions: collected.series.compactions,
    advice: [],
    badLines: collected.badLines,
  };
  report.advice = adviseOn(report);
  return report;
}

const TEXT_RATE = "≈4 characters a token";
const SINCE = "since the last compaction";
const BASES: Readonly<Record<Exclude<CategoryId, "systemPrompt">, string>> = {
  tools:
    "tool definitions of the newest request shape, " +
    `else the tool listings in the transcript ${SINCE}; ${TEXT_RATE}`,
  mcpTools: `MCP tool definitions of the newest request shape, else their listings ${SINCE}; ${TEXT_RATE}`,
  memoryFiles: `CLAUDE.md and memory files attached ${SINCE}; ${TEXT_RATE}`,
  skills: `skill listings and invoked skills ${SINCE}; ${TEXT_RATE}`,
  messages: `prompts, responses and hook text ${SINCE}; ${TEXT_RATE}`,
  toolResults: `tool results ${SINCE}; ${TEXT_RATE}, an image ≈1,600 tokens`,
};

/**
 * The system prompt and tools: from the newest request shape when the transcript has one; otherwise what the
 * first response measured minus the messages it was sent with, at most the smallest request the session made
 * (every request carries them): a first response that also carried @-mentioned files would claim more.
 */
function systemContributions(collected: CollectedContext): {
  contributions: Contribution[];
  systemSource: ContextReport["systemSource"];
  systemBasis: string;
} {
  if (collected.shape) {
    return {
      contributions: collected.shape,
      systemSource: "request-shape",
      systemBasis: `the newest request shape Claude Code recorded, and environment reminders ${SINCE}; ${TEXT_RATE}`,
    };
  }
  const first = collected.firstResponse;
  if (!first)
    return {
      contributions: [],
      systemSource: "none",
      systemBasis: `environment reminders ${SINCE} only: no response with usage yet; ${TEXT_RATE}`,
    };
  const fromFirst = Math.max(0, first.contextTokens - Math.ceil(first.messageChars / CHARS_PER_TOKEN));
  const smallest = Math.min(...collected.series.points.map((point) => point.contextTokens));
  const tokens = Math.min(fromFirst, smallest);
  const bound =
    tokens < fromFirst
      ? `, cut to the smallest request's ${count(smallest)} (every request carries them)`
      : `, at most the smallest request's ${count(smallest)}`;
  const contribution: Contribution = {
    category: "systemPrompt",
    label: "system prompt and tools (first response's usage minus its messages)",
    chars: tokens * CHARS_PER_TOKEN,
  };
  return {
    contributions: [contribution],
    systemSource: "first-response",
    systemBasis:
      `the first response's measured ${count(first.contextTokens)} minus its messages' text ` +
      `(≈${count(Math.ceil(first.messageChars / CHARS_PER_TOKEN))})${bound}`,
  };
}

function modelWindow(collected: CollectedContext, settings: ReportSettings): number {
  if (settings.contextWindowTokens) return settings.contextWindowTokens;
  const reading =
    collected.sessionId && isSafeSessionId(collected.sessionId)
      ? loadReading(openSession(settings.env, collected.sessionId))
      : null;
  return reading?.modelWindowTokens || modelWindowTokens(collected.model ?? undefined);
}

function percentOf(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}
