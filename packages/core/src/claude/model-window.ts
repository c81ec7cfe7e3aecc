const ONE_MILLION = 1_000_000;
const DEFAULT_WINDOW_TOKENS = 200_000;

// Models whose default window is 1M (Claude Code 2.1.332 reports 1,000,000 for claude-opus-5-5);
// a `[1m]` suffix asks for the 1M window on others.
const MILLION_TOKEN_MODELS = /\[1m\]|opus-5|opus-4-[67]/i;

/** The model's context window when no statusline reported it. */
export function modelWindowTokens(modelId: string | undefined): number {
  return modelId && MILLION_TOKEN_MODELS.test(modelId) ? ONE_MILLION : DEFAULT_WINDOW_TOKENS;
}
