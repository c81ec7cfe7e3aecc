import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  highestLevelReached,
  levelsReached,
  rearmLevels,
  rearmLevelsBelow,
  sameLevelBands,
  syncLevelMarkers,
} from "./levels.ts";
import { hasMarker, listMarkers, readMarker, writeMarker } from "./markers.ts";
import { openSession } from "./session.ts";

const SESSION = "9c6cd707-b302-43ce-83ed-ec04fb1bd89d";
const LEVELS = [60, 85];
let env: { HOME: string };
// A new session per call, as a new process would open it: nothing is trusted from an earlier call.
const session = () => openSession(env, SESSION);

beforeEach(() => {
  env = { HOME: mkdtempSync(join(tmpdir(), "carryover-levels-")) };
});
afterEach(() => rmSync(env.HOME, { recursive: true, force: true }));

describe("syncLevelMarkers", () => {
  it("raises each level reached once, with its data, and reports what it raised", () => {
    expect(syncLevelMarkers(session(), 59.9, LEVELS, { percent: 59.9 }, 1)).toEqual([]);
    expect(syncLevelMarkers(session(), 60, LEVELS, { percent: 60 }, 2)).toEqual([60]);
    expect(syncLevelMarkers(session(), 70, LEVELS, { percent: 70 }, 3)).toEqual([]);
    expect(readMarker(session(), "level-60", { nowMs: 3 })).toMatchObject({ createdAtMs: 2, data: { percent: 60 } });
    expect(syncLevelMarkers(session(), 90, LEVELS, { percent: 90 }, 4)).toEqual([85]);
  });

  it("creates nothing below every level", () => {
    syncLevelMarkers(session(), 10, LEVELS, {}, 1);
    expect(listMarkers(session())).toEqual([]);
  });

  it("does not raise an announced level again", () => {
    writeMarker(session(), "announced-60", {}, 1);
    expect(syncLevelMarkers(session(), 65, LEVELS, {}, 2)).toEqual([]);
    expect(hasMarker(session(), "level-60")).toBe(false);
  });

  it("drops a pending level as soon as the context is below it", () => {
    syncLevelMarkers(session(), 61, LEVELS, {}, 1);
    syncLevelMarkers(session(), 59, LEVELS, {}, 2);
    expect(listMarkers(session())).toEqual([]);
  });

  it("re-arms an announced level only once the context is well below it", () => {
    writeMarker(session(), "announced-60", {}, 1);
    syncLevelMarkers(session(), 51, LEVELS, {}, 2);
    expect(hasMarker(session(), "announced-60")).toBe(true);
    syncLevelMarkers(session(), 49, LEVELS, {}, 3);
    expect(hasMarker(session(), "announced-60")).toBe(false);
  });
});

describe("rearmLevelsBelow", () => {
  it("removes pending and announced markers of the levels left well behind, and names them", () => {
    writeMarker(session(), "announced-60", {}, 1);
    writeMarker(session(), "level-85", {}, 1);
    writeMarker(session(), "announced-85", {}, 1);
    expect(rearmLevelsBelow(session(), 70, LEVELS)).toEqual([85]);
    expect(listMarkers(session())).toEqual(["announced-60"]);
    expect(rearmLevelsBelow(session(), 0, LEVELS)).toEqual([60]);
    expect(listMarkers(session())).toEqual([]);
  });

  it("creates nothing when there is nothing to re-arm", () => {
    expect(rearmLevelsBelow(session(), 0, LEVELS)).toEqual([]);
    expect(listMarkers(session())).toEqual([]);
  });
});

describe("sameLevelBands", () => {
  it("is true while the percentage stays at or above, just below (re-arm margin) or well below every level", () => {
    expect(sameLevelBands(61, 74.9, LEVELS)).toBe(true);
    expect(sameLevelBands(50, 59.9, LEVELS)).toBe(true);
    expect(sameLevelBands(10, 49.9, LEVELS)).toBe(true);
    expect(sameLevelBands(90, 99, LEVELS)).toBe(true);
  });

  it("is false across a level, across a re-arm margin, and for any change with the levels' edges", () => {
    expect(sameLevelBands(59.9, 60, LEVELS)).toBe(false);
    expect(sameLevelBands(49.9, 50, LEVELS)).toBe(false);
    expect(sameLevelBands(74.9, 75, LEVELS)).toBe(false);
    expect(sameLevelBands(84, 85, LEVELS)).toBe(false);
    expect(sameLevelBands(70, 20, LEVELS)).toBe(false);
  });

  it("is true for any two percentages with no levels", () => {
    expect(sameLevelBands(10, 95, [])).toBe(true);
  });
});

describe("rearmLevels", () => {
  it("removes the level and announced markers and nothing else", () => {
    for (const name of ["level-60", "level-85", "announced-60", "compacted", "pin-turn"])
      writeMarker(session(), name, {}, 1);
    rearmLevels(session());
    expect(listMarkers(session())).toEqual(["compacted", "pin-turn"]);
  });

  it("does nothing for a session without markers", () => {
    rearmLevels(session());
    expect(hasMarker(session(), "compacted")).toBe(false);
  });
});

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
});
