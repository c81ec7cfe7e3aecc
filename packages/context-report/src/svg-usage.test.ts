import { expect, it } from "vitest";
import { placeLabels } from "./svg-usage.ts";

// A label that does not fit shows as its number, or not at all (its tooltip stays).
it("places compaction labels inside the chart, none over another, crowded ones shortened or left out", () => {
  const texts = (label: string, index: number) => [label, `#${index + 1}`];
  const xs = [70, 75, 80, 85, 90, 95, 100, 500, 505, 940, 950];
  const placed = placeLabels(
    xs.map((x, index) => ({ x, texts: texts("manual: 150k → 3k", index) })),
    960,
  );
  const boxes = placed
    .filter((label) => label !== null)
    .map((label) => {
      const width = label!.text.length * 7.4;
      const from = label!.anchor === "start" ? label!.x : label!.x - width;
      return { row: label!.row, from, to: from + width };
    });
  for (const box of boxes) {
    expect(box.from).toBeGreaterThanOrEqual(4);
    expect(box.to).toBeLessThanOrEqual(956);
  }
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1)) if (a.row === b.row) expect(a.to <= b.from || b.to <= a.from).toBe(true);
  // Near the right edge a label goes to the left of its line.
  expect(placed.at(-1)).toMatchObject({ anchor: "end" });
  expect(placed.filter((label) => label === null)).toHaveLength(3);
  // A label with no room for its text gets its number.
  expect(placeLabels([{ x: 500, texts: ["x".repeat(200), "#1"] }], 960)).toEqual([
    { x: 506, anchor: "start", row: 0, text: "#1" },
  ]);
});
