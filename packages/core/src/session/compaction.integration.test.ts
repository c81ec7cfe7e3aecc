import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bundleTestEntry } from "../../test/bundle.ts";
import { Racer, race, startSoon } from "../../test/racer.ts";
import {
  COMPACTED_MARKER,
  hasPendingCompaction,
  markCompacted,
  recordRecoveryDelivered,
  takePendingCompaction,
} from "./compaction.ts";
import { openSession } from "./session.ts";

const SESSION = "403d97d7-4487-42f5-859f-548a2f3d8b6f";
const WEEK_MS = 7 * 24 * 3_600_000;
const MINUTE_MS = 60_000;
let home: string;
let env: { HOME: string };
// A new session per call, as a new process would open it: nothing is trusted from an earlier call.
const session = () => openSession(env, SESSION);

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-compaction-"));
  env = { HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** The pending compaction when no channel delivered it yet: what a recovery channel then delivers. */
function deliverable(...args: Parameters<typeof takePendingCompaction>) {
  const pending = takePendingCompaction(...args);
  return pending && !pending.delivered ? pending.marker : null;
}

describe("one delivery per compaction", () => {
  it("2.1.332 order: SessionStart(compact) delivers before PostCompact marks; the next channel is told so", () => {
    recordRecoveryDelivered(session(), "p-1", 1_000);
    markCompacted(session(), { trigger: "auto", promptId: "p-1" }, 1_050);
    expect(hasPendingCompaction(session())).toBe(true);
    expect(takePendingCompaction(session(), 2_000, WEEK_MS)).toMatchObject({
      marker: { createdAtMs: 1_050 },
      delivered: true,
    });
    expect(hasPendingCompaction(session())).toBe(false);
  });

  it("the other order: PostCompact marks first; the delivering channel clears the marker", () => {
    markCompacted(session(), { trigger: "manual", promptId: "p-1" }, 1_000);
    recordRecoveryDelivered(session(), "p-1", 1_050);
    expect(hasPendingCompaction(session())).toBe(false);
    expect(deliverable(session(), 2_000, WEEK_MS)).toBeNull();
  });

  it("with no delivery yet, the first taker gets the compaction's facts, the next nothing", () => {
    markCompacted(session(), { trigger: "auto", promptId: "p-1" }, 1_000);
    expect(deliverable(session(), 2_000, WEEK_MS)).toEqual({
      name: COMPACTED_MARKER,
      createdAtMs: 1_000,
      data: { trigger: "auto", promptId: "p-1" },
    });
    expect(deliverable(session(), 2_000, WEEK_MS)).toBeNull();
  });

  it("a delivery for an earlier compaction does not silence a later one", () => {
    recordRecoveryDelivered(session(), "p-1", 1_000);
    markCompacted(session(), { trigger: "auto", promptId: "p-1" }, 1_000);
    deliverable(session(), 1_100, WEEK_MS);
    markCompacted(session(), { trigger: "auto", promptId: "p-2" }, 1_200);
    expect(deliverable(session(), 1_300, WEEK_MS)?.data.promptId).toBe("p-2");
  });

  it("without prompt ids, a delivery within a minute of the marker counts as the same compaction", () => {
    recordRecoveryDelivered(session(), undefined, 10 * MINUTE_MS);
    markCompacted(session(), { trigger: "manual" }, 10 * MINUTE_MS + 30_000);
    expect(deliverable(session(), 11 * MINUTE_MS, WEEK_MS)).toBeNull();
    markCompacted(session(), { trigger: "manual" }, 12 * MINUTE_MS);
    expect(deliverable(session(), 13 * MINUTE_MS, WEEK_MS)?.createdAtMs).toBe(12 * MINUTE_MS);
  });

  it("a compaction marker older than maxAgeMs is dropped", () => {
    markCompacted(session(), { trigger: "auto", promptId: "p-1" }, 1_000);
    expect(deliverable(session(), 1_000 + MINUTE_MS + 1, MINUTE_MS)).toBeNull();
    expect(hasPendingCompaction(session())).toBe(false);
  });
});

describe("processes racing", () => {
  let bundle: string;
  beforeAll(async () => {
    bundle = await bundleTestEntry("race-worker");
  });
  afterAll(() => rmSync(dirname(bundle), { recursive: true, force: true }));

  it("PostCompact marking while SessionStart(compact) delivers, at once: no later channel delivers again", async () => {
    const racers = [
      new Racer(bundle, "post-compact", home, SESSION),
      new Racer(bundle, "deliver-at-session-start", home, SESSION),
    ];
    const deliveries: number[] = [];
    try {
      for (let round = 1; round <= 30; round++) {
        const startAtNs = startSoon();
        const results = await Promise.all(racers.map((racer) => racer.go(round, startAtNs)));
        expect(results).toEqual(["lost", "won"]);
        const laterChannel = deliverable(session(), Date.now(), WEEK_MS);
        deliveries.push(1 + (laterChannel ? 1 : 0));
        expect(hasPendingCompaction(session())).toBe(false);
      }
    } finally {
      for (const racer of racers) racer.stop();
    }
    expect(deliveries).toEqual(Array(30).fill(1));
  });

  it("of two channels taking one pending compaction at one instant, exactly one delivers, every round", async () => {
    const racers = [1, 2].map(() => new Racer(bundle, "take-and-deliver", home, SESSION));
    try {
      const rounds = await race(racers, 50, (round) =>
        markCompacted(session(), { trigger: "auto", promptId: `prompt-${round}` }, Date.now()),
      );
      expect(rounds.flat().filter((result) => result.startsWith("error"))).toEqual([]);
      expect(rounds.map((results) => results.filter((result) => result === "won").length)).toEqual(Array(50).fill(1));
      expect(hasPendingCompaction(session())).toBe(false);
    } finally {
      for (const racer of racers) racer.stop();
    }
  });
});
