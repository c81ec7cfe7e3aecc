import { expect, it } from "vitest";
import { progressIndicator } from "./progress.ts";

const MiB = 1024 * 1024;

function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, isTTY, write: (text: string) => void writes.push(text) };
}

it("shows a large transcript's percent and size on a terminal, at most every 100 ms, then clears its line", () => {
  const out = sink(true);
  let now = 0;
  const progress = progressIndicator(out, () => now);
  progress.update(16 * MiB, 64 * MiB);
  now = 50;
  progress.update(32 * MiB, 64 * MiB);
  now = 150;
  progress.update(48 * MiB, 64 * MiB);
  progress.done();
  expect(out.writes).toEqual([
    "\r\u001b[Kreading transcript  25% (16.0 MiB of 64.0 MiB)",
    "\r\u001b[Kreading transcript  75% (48.0 MiB of 64.0 MiB)",
    "\r\u001b[K",
  ]);
});

it("stays silent when stderr is not a terminal or the transcript is small", () => {
  for (const [isTTY, total] of [
    [false, 64 * MiB],
    [true, 8 * MiB],
  ] as const) {
    const out = sink(isTTY);
    const progress = progressIndicator(out, () => 1_000);
    progress.update(total / 2, total);
    progress.done();
    expect(out.writes).toEqual([]);
  }
});
