import { describe, expect, it } from "vitest";
import { announcedMarkerName, highestLevelReached, levelMarkerName, levelsReached } from "./levels.ts";

describe("levels", () => {
  it("lists the levels at or above a percent, lowest first, whatever order they were configured in", () => {
    expect(levelsReached(59.9, [85, 60])).toEqual([]);
    expect(levelsReached(60, [85, 60])).toEqual([60]);
    expect(levelsReached(120, [85, 60, 95])).toEqual([60, 85, 95]);
    expect(levelsReached(90, [])).toEqual([]);
  });

  it("highestLevelReached is the top one, or null below the first", () => {
    expect(highestLevelReached(86, [60, 85])).toBe(85);
    expect(highestLevelReached(10, [60, 85])).toBeNull();
  });

  it("does not reorder the configured list", () => {
    const levels = [85, 60];
    levelsReached(100, levels);
    expect(levels).toEqual([85, 60]);
  });

  it("names markers by the rounded level, as valid marker names", () => {
    expect(levelMarkerName(60)).toBe("level-60");
    expect(levelMarkerName(72.6)).toBe("level-73");
    expect(announcedMarkerName(85)).toBe("announced-85");
  });
});
