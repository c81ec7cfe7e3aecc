import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bundleTestEntry } from "../../test/bundle.ts";
import { race, Racer, startSoon } from "../../test/racer.ts";
import {
  COMPACTED_MARKER,
  hasPendingCompaction,
  markCompacted,
  rearmLevels,
  recordRecoveryDelivered,
  takePendingCompaction,
} from "./compaction.ts";
import { hasMarker, listMarkers, writeMarker } from "./markers.ts";

const SESSION = "403d97d7-4487-42f5-859f-548a2f3d8b6f";
const WEEK_MS = 7 * 24 * 3_600_000;
const MINUTE_MS = 60_000;
let home: string;
let env: { HOME: string };

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-compaction-"));
  env = { HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("one delivery per compaction", () => {
  it("2.1.332 order: SessionStart(compact) delivers before PostCompact marks; the next channel stays silent", () => {
    recordRecoveryDelivered(env, SESSION, "p-1", 1_000);
    markCompacted(env, SESSION, { trigger: "auto", promptId: "p-1" }, 1_050);
    expect(hasPendingCompaction(env, SESSION)).toBe(true);
    expect(takePendingCompaction(env, SESSION, 2_000, WEEK_MS)).toBeNull();
    expect(hasPendingCompaction(env, SESSION)).toBe(false);
  });

  it("the other order: PostCompact marks first; the delivering channel clears the marker", () => {
    markCompacted(env, SESSION, { trigger: "manual", promptId: "p-1" }, 1_000);
    recordRecoveryDelivered(env, SESSION, "p-1", 1_050);
    expect(hasPendingCompaction(env, SESSION)).toBe(false);
    expect(takePendingCompaction(env, SESSION, 2_000, WEEK_MS)).toBeNull();
  });

  it("with no delivery yet, the first taker gets the compaction's facts, the next nothing", () => {
    markCompacted(env, SESSION, { trigger: "auto", promptId: "p-1" }, 1_000);
    expect(takePendingCompaction(env, SESSION, 2_000, WEEK_MS)).toEqual({
      name: COMPACTED_MARKER,
      createdAtMs: 1_000,
      data: { trigger: "auto", promptId: "p-1" },
    });
    expect(takePendingCompaction(env, SESSION, 2_000, WEEK_MS)).toBeNull();
  });

  it("a delivery for an earlier compaction does not silence a later one", () => {
    recordRecoveryDelivered(env, SESSION, "p-1", 1_000);
    markCompacted(env, SESSION, { trigger: "auto", promptId: "p-1" }, 1_000);
    takePendingCompaction(env, SESSION, 1_100, WEEK_MS);
    markCompacted(env, SESSION, { trigger: "auto", promptId: "p-2" }, 1_200);
    expect(takePendingCompaction(env, SESSION, 1_300, WEEK_MS)?.data.promptId).toBe("p-2");
  });

  it("without prompt ids, a delivery within five minutes of the marker counts as the same compaction", () => {
    recordRecoveryDelivered(env, SESSION, undefined, 10 * MINUTE_MS);
    markCompacted(env, SESSION, { trigger: "manual" }, 14 * MINUTE_MS);
    expect(takePendingCompaction(env, SESSION, 15 * MINUTE_MS, WEEK_MS)).toBeNull();
    markCompacted(env, SESSION, { trigger: "manual" }, 16 * MINUTE_MS);
    expect(takePendingCompaction(env, SESSION, 17 * MINUTE_MS, WEEK_MS)?.createdAtMs).toBe(16 * MINUTE_MS);
  });

  it("a compaction marker older than maxAgeMs is dropped", () => {
    markCompacted(env, SESSION, { trigger: "auto", promptId: "p-1" }, 1_000);
    expect(takePendingCompaction(env, SESSION, 1_000 + MINUTE_MS + 1, MINUTE_MS)).toBeNull();
    expect(hasPendingCompaction(env, SESSION)).toBe(false);
  });
});

describe("rearmLevels", () => {
  it("removes the level and announced markers and nothing else", () => {
    for (const name of ["level-60", "level-85", "announced-60", "compacted", "pin-turn"]) writeMarker(env, SESSION, name, {}, 1);
    rearmLevels(env, SESSION);
    expect(listMarkers(env, SESSION)).toEqual(["compacted", "pin-turn"]);
  });

  it("does nothing for a session without markers", () => {
    rearmLevels(env, SESSION);
    expect(hasMarker(env, SESSION, "compacted")).toBe(false);
  });
});

describe("processes racing", () => {
  let bundle: string;
  beforeAll(async () => {
    bundle = await bundleTestEntry("race-worker");
  });
  afterAll(() => rmSync(dirname(bundle), { recursive: true, force: true }));

  it("PostCompact marking while SessionStart(compact) delivers, at the same instant: the next channel never delivers again", async () => {
    const racers = [new Racer(bundle, "post-compact", home, SESSION), new Racer(bundle, "deliver-at-session-start", home, SESSION)];
    const deliveries: number[] = [];
    try {
      for (let round = 1; round <= 30; round++) {
        const startAtNs = startSoon();
        const results = await Promise.all(racers.map((racer) => racer.go(round, startAtNs)));
        expect(results).toEqual(["lost", "won"]);
        const laterChannel = takePendingCompaction(env, SESSION, Date.now(), WEEK_MS);
        deliveries.push(1 + (laterChannel ? 1 : 0));
        expect(hasPendingCompaction(env, SESSION)).toBe(false);
      }
    } finally {
      for (const racer of racers) racer.stop();
    }
    expect(deliveries).toEqual(Array(30).fill(1));
  });

  it("of two channels taking one pending compaction at the same instant, exactly one delivers, every round", async () => {
    const racers = [1, 2].map(() => new Racer(bundle, "take-and-deliver", home, SESSION));
    try {
      const rounds = await race(racers, 50, (round) =>
        markCompacted(env, SESSION, { trigger: "auto", promptId: `prompt-${round}` }, Date.now()),
      );
      expect(rounds.flat().filter((result) => result.startsWith("error"))).toEqual([]);
      expect(rounds.map((results) => results.filter((result) => result === "won").length)).toEqual(Array(50).fill(1));
      expect(hasPendingCompaction(env, SESSION)).toBe(false);
    } finally {
      for (const racer of racers) racer.stop();
    }
  });
});
