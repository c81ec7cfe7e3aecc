import { expect, it } from "vitest";
import { bar, sparkline } from "./bars.ts";

it("bar: whole cells then an eighth-cell remainder, clamped to the width", () => {
  expect(bar(0.5, 8)).toBe("████");
  expect(bar(1 / 16, 8)).toBe("▌");
  expect(bar(2, 4)).toBe("████");
  expect(bar(0, 4)).toBe("");
});

it("sparkline: one column per point or bucket (its peak), compactions marked before the point after them", () => {
  expect(sparkline([0, 50, 100], 10, 100)).toBe("▁▅█");
  expect(sparkline([0, 100, 0, 0], 2, 100)).toBe("█▁");
  expect(sparkline([10, 90, 20], 10, 100, [2])).toBe("▂▇┃▂");
  expect(sparkline([10, 90], 10, 100, [2])).toBe("▂▇┃");
});
