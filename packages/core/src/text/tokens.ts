/** Tokens the way people read them: 950, 9.5k, 118k, 1M, 1.3M. */
export function formatTokens(tokens: number): string {
  const value = Math.max(0, Math.round(tokens));
  if (value < 1_000) return String(value);
  if (value < 9_950) return `${Math.round(value / 100) / 10}k`;
  const thousands = Math.round(value / 1_000);
  if (thousands < 1_000) return `${thousands}k`;
  return `${Math.round(value / 100_000) / 10}M`;
}
