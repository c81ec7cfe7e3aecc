import { bytes } from "./format.ts";

export interface ProgressSink {
  isTTY: boolean;
  write(text: string): void;
}

// Below this a scan ends before a progress line would be worth showing (BENCHMARKS.md has the scan rate).
const MIN_BYTES = 32 * 1024 * 1024;
const INTERVAL_MS = 100;
const CLEAR_LINE = "\r\u001b[K";

/** A one-line progress display on a terminal's stderr, for large transcripts only; silent otherwise. */
export function progressIndicator(
  sink: ProgressSink,
  nowMs: () => number = Date.now,
): { update(bytesRead: number, totalBytes: number): void; done(): void } {
  let shown = false;
  let lastMs = -Infinity;
  return {
    update(bytesRead, totalBytes) {
      if (!sink.isTTY || totalBytes < MIN_BYTES) return;
      const now = nowMs();
      if (now - lastMs < INTERVAL_MS) return;
      lastMs = now;
      shown = true;
      const done = Math.min(100, Math.floor((bytesRead / totalBytes) * 100));
      sink.write(
        `${CLEAR_LINE}reading transcript ${String(done).padStart(3)}% (${bytes(bytesRead)} of ${bytes(totalBytes)})`,
      );
    },
    done() {
      if (shown) sink.write(CLEAR_LINE);
      shown = false;
    },
  };
}
