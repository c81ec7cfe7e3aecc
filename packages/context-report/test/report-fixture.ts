import { adviseOn } from "../src/advice.ts";
import { CATEGORY_LABELS, CATEGORY_ORDER, type CategoryId, type ContextReport } from "../src/model.ts";

type Shares = Partial<Record<CategoryId, { tokens: number; parts?: Array<{ label: string; tokens: number }> }>>;

/** A report with the given category sizes, the measure and limit given, and its advice computed. */
export function reportWith(shares: Shares, overrides: Partial<ContextReport> = {}): ContextReport {
  const estimatedTokens = Object.values(shares).reduce((sum, share) => sum + share.tokens, 0);
  const categories = CATEGORY_ORDER.map((id) => {
    const tokens = shares[id]?.tokens ?? 0;
    const percent = Math.round((tokens / estimatedTokens) * 1000) / 10;
    return {
      id,
      label: CATEGORY_LABELS[id],
      tokens,
      basis: `${id} text, ≈4 characters a token`,
      percent,
      parts: shares[id]?.parts ?? [],
    };
  });
  const dominant = categories.reduce((best, category) => (category.tokens > best.tokens ? category : best)).id;
  const report: ContextReport = {
    transcriptPath: "/home/u/.claude/projects/-p/s-1.jsonl",
    transcriptBytes: 2048,
    sessionId: "s-1",
    cwd: "/p",
    model: "claude-opus-5-5",
    measuredTokens: 10_000,
    measuredSource: "response",
    estimatedTokens,
    systemSource: "request-shape",
    work: {
      since: "start",
      lastRequest: "fix it",
      filesChanged: [],
      commands: [],
      errors: [],
      todos: [],
      tasks: [],
      workers: [],
    },
    modelWindowTokens: 1_000_000,
    autoCompactTokens: 967_000,
    autoCompactPercent: 1,
    categories,
    dominant,
    largestItems: [],
    series: [],
    turns: [],
    compactions: [],
    advice: [],
    badLines: 0,
    ...overrides,
  };
  report.advice = overrides.advice ?? adviseOn(report);
  return report;
}
