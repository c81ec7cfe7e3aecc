import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rearmLevelsBelow, sameLevelBands, syncLevelMarkers } from "./level-markers.ts";
import { hasMarker, listMarkers, readMarker, writeMarker } from "./markers.ts";

const SESSION = "9c6cd707-b302-43ce-83ed-ec04fb1bd89d";
const LEVELS = [60, 85];
let env: { HOME: string };

beforeEach(() => {
  env = { HOME: mkdtempSync(join(tmpdir(), "carryover-levels-")) };
});
afterEach(() => rmSync(env.HOME, { recursive: true, force: true }));

describe("syncLevelMarkers", () => {
  it("raises each level reached once, with its data, and reports what it raised", () => {
    expect(syncLevelMarkers(env, SESSION, 59.9, LEVELS, { percent: 59.9 }, 1)).toEqual([]);
    expect(syncLevelMarkers(env, SESSION, 60, LEVELS, { percent: 60 }, 2)).toEqual([60]);
    expect(syncLevelMarkers(env, SESSION, 70, LEVELS, { percent: 70 }, 3)).toEqual([]);
    expect(readMarker(env, SESSION, "level-60", { nowMs: 3 })).toMatchObject({ createdAtMs: 2, data: { percent: 60 } });
    expect(syncLevelMarkers(env, SESSION, 90, LEVELS, { percent: 90 }, 4)).toEqual([85]);
  });

  it("creates nothing below every level", () => {
    syncLevelMarkers(env, SESSION, 10, LEVELS, {}, 1);
    expect(listMarkers(env, SESSION)).toEqual([]);
  });

  it("does not raise an announced level again", () => {
    writeMarker(env, SESSION, "announced-60", {}, 1);
    expect(syncLevelMarkers(env, SESSION, 65, LEVELS, {}, 2)).toEqual([]);
    expect(hasMarker(env, SESSION, "level-60")).toBe(false);
  });

  it("drops a pending level as soon as the context is below it", () => {
    syncLevelMarkers(env, SESSION, 61, LEVELS, {}, 1);
    syncLevelMarkers(env, SESSION, 59, LEVELS, {}, 2);
    expect(listMarkers(env, SESSION)).toEqual([]);
  });

  it("re-arms an announced level only once the context is well below it", () => {
    writeMarker(env, SESSION, "announced-60", {}, 1);
    syncLevelMarkers(env, SESSION, 51, LEVELS, {}, 2);
    expect(hasMarker(env, SESSION, "announced-60")).toBe(true);
    syncLevelMarkers(env, SESSION, 49, LEVELS, {}, 3);
    expect(hasMarker(env, SESSION, "announced-60")).toBe(false);
  });
});

describe("rearmLevelsBelow", () => {
  it("removes pending and announced markers of the levels left well behind, and names them", () => {
    writeMarker(env, SESSION, "announced-60", {}, 1);
    writeMarker(env, SESSION, "level-85", {}, 1);
    writeMarker(env, SESSION, "announced-85", {}, 1);
    expect(rearmLevelsBelow(env, SESSION, 70, LEVELS)).toEqual([85]);
    expect(listMarkers(env, SESSION)).toEqual(["announced-60"]);
    expect(rearmLevelsBelow(env, SESSION, 0, LEVELS)).toEqual([60]);
    expect(listMarkers(env, SESSION)).toEqual([]);
  });

  it("creates nothing when there is nothing to re-arm", () => {
    expect(rearmLevelsBelow(env, SESSION, 0, LEVELS)).toEqual([]);
    expect(listMarkers(env, SESSION)).toEqual([]);
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
