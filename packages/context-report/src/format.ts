/** 12345 → "12,345". */
export function count(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** A token figure the transcript may not have: "12,345" or "unknown". */
export function tokensOrUnknown(value: number | null): string {
  return value === null ? "unknown" : count(value);
}

/** 12.34 → "12.3%". */
export function percent(value: number): string {
  return `${value.toFixed(1)}%`;
}

/** A UTC time of day for a timestamp, or "" when unknown. */
export function clock(atMs: number | undefined): string {
  return atMs === undefined ? "" : new Date(atMs).toISOString().slice(11, 19);
}

/** 421976 → "412 KiB". */
export function bytes(value: number): string {
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${Math.round(value / 1024)} KiB`;
  return `${(value / (1024 * 1024)).toFixed(1)} MiB`;
}
