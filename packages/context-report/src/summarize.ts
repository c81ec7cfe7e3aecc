import {
  autoCompactTokens,
  type Env,
  isSafeSessionId,
  loadReading,
  modelWindowTokens,
  readAutoCompactSettings,
} from "@carryover/core";
import { adviseOn } from "./advice.ts";
import type { CollectedContext } from "./collector.ts";
import {
  CATEGORY_LABELS,
  CATEGORY_ORDER,
  type CategoryEstimate,
  type CategoryId,
  type ContextItem,
  type ContextReport,
  type Contribution,
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
}

const DEFAULT_LARGEST_ITEMS = 10;

/** Sizes what was collected, finds the dominant category and the largest items, places it against the auto-compact point. */
export function summarize(collected: CollectedContext, source: TranscriptSource, settings: ReportSettings): ContextReport {
  const { contributions: system, systemSource } = systemContributions(collected);
  const totals = new Map<CategoryId, { tokens: number; parts: Map<string, number> }>();
  const items: ContextItem[] = [];
  for (const contribution of [...system, ...collected.contributions]) {
    const tokens = estimateTokens(contribution.chars);
    if (tokens === 0) continue;
    const total = totals.get(contribution.category) ?? { tokens: 0, parts: new Map() };
    total.tokens += tokens;
    if (contribution.part !== undefined) total.parts.set(contribution.part, (total.parts.get(contribution.part) ?? 0) + tokens);
    totals.set(contribution.category, total);
    items.push({ category: contribution.category, label: contribution.label, tokens });
  }
  const estimatedTokens = [...totals.values()].reduce((sum, total) => sum + total.tokens, 0);
  const categories: CategoryEstimate[] = CATEGORY_ORDER.map((id) => {
    const total = totals.get(id);
    const tokens = total?.tokens ?? 0;
    const parts = [...(total?.parts ?? [])].map(([label, partTokens]) => ({ label, tokens: partTokens })).sort((a, b) => b.tokens - a.tokens);
    return { id, label: CATEGORY_LABELS[id], tokens, percent: percentOf(tokens, estimatedTokens), parts };
  });
  const dominant = estimatedTokens > 0 ? categories.reduce((best, category) => (category.tokens > best.tokens ? category : best)).id : null;
  const largestItems = items.sort((a, b) => b.tokens - a.tokens).slice(0, settings.largestItems ?? DEFAULT_LARGEST_ITEMS);

  const measured = collected.series.measured();
  const windowTokens = modelWindow(collected, settings);
  const autoCompact = autoCompactTokens(windowTokens, settings.env, readAutoCompactSettings(settings.env, collected.cwd ?? undefined));
  const report: ContextReport = {
    transcriptPath: source.path,
    transcriptBytes: source.bytes,
    sessionId: collected.sessionId,
    model: collected.model,
    measuredTokens: measured?.tokens ?? null,
    measuredSource: measured?.source ?? null,
    estimatedTokens,
    systemSource,
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

/**
 * The system prompt and tools: from the newest request shape when the transcript has one; otherwise
 * what the first response measured minus the messages it was sent with.
 */
function systemContributions(collected: CollectedContext): { contributions: Contribution[]; systemSource: ContextReport["systemSource"] } {
  if (collected.shape) return { contributions: collected.shape, systemSource: "request-shape" };
  const first = collected.firstResponse;
  if (!first) return { contributions: [], systemSource: "none" };
  const chars = Math.max(0, first.contextTokens * CHARS_PER_TOKEN - first.messageChars);
  const contribution: Contribution = { category: "systemPrompt", label: "system prompt and tools (first response's usage minus its messages)", chars };
  return { contributions: [contribution], systemSource: "first-response" };
}

function modelWindow(collected: CollectedContext, settings: ReportSettings): number {
  if (settings.contextWindowTokens) return settings.contextWindowTokens;
  const reading = collected.sessionId && isSafeSessionId(collected.sessionId) ? loadReading(settings.env, collected.sessionId) : null;
  return reading?.modelWindowTokens || modelWindowTokens(collected.model ?? undefined);
}

function percentOf(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}
