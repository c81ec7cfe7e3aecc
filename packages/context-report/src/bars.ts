const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
const LEVELS = "▁▂▃▄▅▆▇█";

/** A horizontal bar of `fraction` (0–1) of `width` cells, in eighths of a cell. */
export function bar(fraction: number, width: number): string {
  const eighths = Math.round(Math.max(0, Math.min(1, fraction)) * width * 8);
  return "█".repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}

/**
 * One character per column for a series: each column shows the largest value of the points it covers,
 * against `max`. A mark (a point index) puts `markChar` just before the column of that point.
 */
export function sparkline(
  values: readonly number[],
  width: number,
  max: number,
  marks: readonly number[] = [],
  markChar = "┃",
): string {
  if (values.length === 0 || max <= 0) return "";
  const columns = Math.min(width, values.length);
  const cells: string[] = [];
  for (let column = 0; column < columns; column++) {
    const from = Math.floor((column * values.length) / columns);
    const to = Math.max(from + 1, Math.floor(((column + 1) * values.length) / columns));
    let peak = 0;
    for (let i = from; i < to; i++) peak = Math.max(peak, values[i]!);
    cells.push(LEVELS[Math.min(LEVELS.length - 1, Math.floor((peak / max) * (LEVELS.length - 1) + 0.5))]!);
  }
  const before = new Set(
    marks.map((mark) => (mark >= values.length ? columns : Math.floor((Math.max(0, mark) * columns) / values.length))),
  );
  return (
    cells.map((cell, column) => (before.has(column) ? markChar : "") + cell).join("") +
    (before.has(columns) ? markChar : "")
  );
}
