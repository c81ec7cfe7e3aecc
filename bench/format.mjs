export function table(headers, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map((_, i) => (i === 0 ? "---" : "---:"))), ...rows.map(line)].join("\n");
}

/** `1.04× (0.97–1.20)`: the median of the per-round ratios, with their min and max. */
export function ratioCell(ratio) {
  return `${ratio.median.toFixed(2)}× (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)})`;
}

/** Mean CPU time per run (user + sys, all processes and threads) over the baseline's: `1.02× (48.1 ms)`. */
export function cpuCell(row) {
  return `${row.cpuRatio.toFixed(2)}× (${row.cpuMs.toFixed(1)} ms)`;
}

export function msCell(row) {
  return `${row.median.toFixed(1)} (${row.min.toFixed(1)}–${row.max.toFixed(1)})`;
}

/** One row per case run against `node -e 0`: its wall and CPU ratios, its wall time and its peak RSS. */
export function againstNodeTable(firstHeading, rows, rssHeading = "peak RSS") {
  return table(
    [firstHeading, "wall × `node -e 0`", "CPU × `node -e 0`", "wall ms", rssHeading],
    rows.map((row) => [row.name, ratioCell(row.ratio), cpuCell(row), msCell(row), mib(row.rssMiB)]),
  );
}

export function mib(value) {
  return `${value.toFixed(1)} MiB`;
}

export function kb(bytes) {
  return `${(bytes / 1000).toFixed(1)} KB`;
}
