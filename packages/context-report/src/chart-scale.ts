/** A "nice" axis step (1, 2 or 5 × 10^n) giving about `ticks` ticks up to `max`. */
export function niceStep(max: number, ticks: number): number {
  if (max <= 0) return 1;
  const rough = max / ticks;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const normalized = rough / magnitude;
  return (normalized <= 1 ? 1 : normalized <= 2 ? 2 : normalized <= 5 ? 5 : 10) * magnitude;
}

/** 67000 → "67k", 1200000 → "1.2M", for axis labels. */
export function shortTokens(value: number): string {
  if (value >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (value >= 1_000) return `${trim(value / 1_000)}k`;
  return String(Math.round(value));
}

function trim(value: number): string {
  return value.toFixed(1).replace(/\.0$/, "");
}

/** At most `maxPoints` (index, value) pairs keeping each bucket's highest value, so peaks survive. */
export function downsample(values: readonly number[], maxPoints: number): Array<{ index: number; value: number }> {
  if (values.length <= maxPoints) return values.map((value, index) => ({ index, value }));
  const points: Array<{ index: number; value: number }> = [];
  for (let bucket = 0; bucket < maxPoints; bucket++) {
    const from = Math.floor((bucket * values.length) / maxPoints);
    const to = Math.floor(((bucket + 1) * values.length) / maxPoints);
    let best = from;
    for (let i = from; i < to; i++) if (values[i]! > values[best]!) best = i;
    points.push({ index: best, value: values[best]! });
  }
  return points;
}
