import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bundleTestEntry } from "../../test/bundle.ts";
import { Racer, race } from "../../test/racer.ts";
import {
  consumeMarker,
  createMarkerOnce,
  hasMarker,
  listMarkers,
  markerPath,
  readMarker,
  removeMarker,
  writeMarker,
} from "./markers.ts";
import { openSession } from "./session.ts";

const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let home: string;
let env: { HOME: string };
// A new session per call, as a new process would open it: nothing is trusted from an earlier call.
const session = () => openSession(env, SESSION);
let markersDir: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-markers-"));
  env = { HOME: home };
  markersDir = join(home, ".claude/carryover/sessions", SESSION, "markers");
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("markerPath", () => {
  it("names the file under the session's markers dir and creates nothing", () => {
    expect(markerPath(session(), "level-60")).toBe(join(markersDir, "level-60.json"));
    expect(readdirSync(home)).toEqual([]);
  });

  it("refuses names that are not plain tokens, and unsafe session ids", () => {
    for (const name of ["../x", "Level", "", "a/b", "-x", "x".repeat(65)]) {
      expect(() => markerPath(session(), name)).toThrow(expect.objectContaining({ code: "BAD_INPUT" }));
    }
    expect(() => markerPath(openSession(env, "../etc"), "x")).toThrow(
      expect.objectContaining({ code: "BAD_SESSION_ID" }),
    );
  });
});

describe("write, read, consume", () => {
  it("writes a marker readable with its name, time and data, in private dirs", () => {
    writeMarker(session(), "compacted", { trigger: "auto" }, 1_000);
    expect(readMarker(session(), "compacted", { nowMs: 2_000 })).toEqual({
      name: "compacted",
      createdAtMs: 1_000,
      data: { trigger: "auto" },
    });
    expect(statSync(join(markersDir, "compacted.json")).mode & 0o777).toBe(0o600);
    expect(statSync(markersDir).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(markersDir)).mode & 0o777).toBe(0o700);
  });

  it("reading leaves the marker; consuming takes it exactly once", () => {
    writeMarker(session(), "level-60", { percent: 61 }, 1_000);
    expect(readMarker(session(), "level-60", { nowMs: 1_000 })?.data).toEqual({ percent: 61 });
    expect(hasMarker(session(), "level-60")).toBe(true);
    expect(consumeMarker(session(), "level-60", { nowMs: 1_000 })?.data).toEqual({ percent: 61 });
    expect(consumeMarker(session(), "level-60", { nowMs: 1_000 })).toBeNull();
    expect(hasMarker(session(), "level-60")).toBe(false);
    expect(readdirSync(markersDir)).toEqual([]);
  });

  it("a newer write replaces the marker", () => {
    writeMarker(session(), "level-60", { n: 1 }, 1_000);
    writeMarker(session(), "level-60", { n: 2 }, 2_000);
    expect(readMarker(session(), "level-60", { nowMs: 2_000 })).toMatchObject({ createdAtMs: 2_000, data: { n: 2 } });
    expect(readdirSync(markersDir)).toEqual(["level-60.json"]);
  });

  it("a stale marker reads as null and is deleted, by read and by consume", () => {
    writeMarker(session(), "a", {}, 1_000);
    writeMarker(session(), "b", {}, 1_000);
    expect(readMarker(session(), "a", { nowMs: 1_500, maxAgeMs: 500 })).not.toBeNull();
    expect(readMarker(session(), "a", { nowMs: 1_501, maxAgeMs: 500 })).toBeNull();
    expect(consumeMarker(session(), "b", { nowMs: 1_501, maxAgeMs: 500 })).toBeNull();
    expect(readdirSync(markersDir)).toEqual([]);
  });

  it("an unreadable marker (torn or foreign) reads as null and is deleted", () => {
    writeMarker(session(), "a", {}, 1_000);
    writeFileSync(join(markersDir, "a.json"), '{"name":"a","createdAt');
    writeFileSync(join(markersDir, "b.json"), '{"no":"time"}');
    expect(readMarker(session(), "a", { nowMs: 1_000 })).toBeNull();
    expect(consumeMarker(session(), "b", { nowMs: 1_000 })).toBeNull();
    expect(readdirSync(markersDir)).toEqual([]);
  });

  it("reading a missing marker creates nothing", () => {
    expect(readMarker(session(), "a", { nowMs: 0 })).toBeNull();
    expect(consumeMarker(session(), "a", { nowMs: 0 })).toBeNull();
    expect(hasMarker(session(), "a")).toBe(false);
    expect(readdirSync(home)).toEqual([]);
  });

  it("removeMarker says whether there was one", () => {
    writeMarker(session(), "a", {}, 1);
    expect(removeMarker(session(), "a")).toBe(true);
    expect(removeMarker(session(), "a")).toBe(false);
  });
});

describe("createMarkerOnce", () => {
  it("creates only when absent and keeps the first data", () => {
    expect(createMarkerOnce(session(), "announced-60", { by: "first" }, 1)).toBe(true);
    expect(createMarkerOnce(session(), "announced-60", { by: "second" }, 2)).toBe(false);
    expect(readMarker(session(), "announced-60", { nowMs: 3 })).toMatchObject({
      createdAtMs: 1,
      data: { by: "first" },
    });
    expect(readdirSync(markersDir)).toEqual(["announced-60.json"]);
  });
});

describe("listMarkers", () => {
  it("lists marker names by prefix, sorted, ignoring temp and foreign files", () => {
    writeMarker(session(), "level-85", {}, 1);
    writeMarker(session(), "level-60", {}, 1);
    writeMarker(session(), "announced-60", {}, 1);
    writeFileSync(join(markersDir, ".level-70.json.123.abc.tmp"), "");
    writeFileSync(join(markersDir, "level-75.json.123.abc.claimed"), "");
    writeFileSync(join(markersDir, "Level-90.json"), "{}");
    expect(listMarkers(session(), "level-")).toEqual(["level-60", "level-85"]);
    expect(listMarkers(session())).toEqual(["announced-60", "level-60", "level-85"]);
  });

  it("is empty for a session without markers, creating nothing", () => {
    expect(listMarkers(session())).toEqual([]);
    expect(readdirSync(home)).toEqual([]);
  });
});

describe("symlinks", () => {
  it("a symlink at a marker path is not followed on read", () => {
    writeMarker(session(), "other", {}, 1);
    const target = join(home, "secret.json");
    writeFileSync(target, JSON.stringify({ name: "compacted", createdAtMs: 1, data: { planted: true } }));
    symlinkSync(target, join(markersDir, "compacted.json"));
    expect(() => readMarker(session(), "compacted", { nowMs: 1 })).toThrow(
      expect.objectContaining({ code: "UNSAFE_PATH" }),
    );
    expect(() => consumeMarker(session(), "compacted", { nowMs: 1 })).toThrow(
      expect.objectContaining({ code: "UNSAFE_PATH" }),
    );
    expect(JSON.parse(readFileSync(target, "utf8")).data).toEqual({ planted: true });
  });

  it("writing a marker refuses a symlink at its path and writes nothing through it", () => {
    writeMarker(session(), "other", {}, 1);
    const target = join(home, "victim.txt");
    writeFileSync(target, "keep me");
    symlinkSync(target, join(markersDir, "level-60.json"));
    expect(() => writeMarker(session(), "level-60", { n: 1 }, 5)).toThrow(
      expect.objectContaining({ code: "UNSAFE_PATH" }),
    );
    expect(readFileSync(target, "utf8")).toBe("keep me");
    expect(lstatSync(join(markersDir, "level-60.json")).isSymbolicLink()).toBe(true);
  });

  it("a symlinked markers dir is refused and nothing is written through it", () => {
    const elsewhere = join(home, "elsewhere");
    mkdirSync(elsewhere);
    mkdirSync(dirname(markersDir), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, markersDir);
    expect(() => writeMarker(session(), "a", {}, 1)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH" }));
    expect(() => createMarkerOnce(session(), "a", {}, 1)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH" }));
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe("processes racing for one marker", () => {
  let bundle: string;
  beforeAll(async () => {
    bundle = await bundleTestEntry("race-worker");
  });
  afterAll(() => rmSync(dirname(bundle), { recursive: true, force: true }));

  it("of three processes consuming the same marker at the same instant, exactly one gets it, every round", async () => {
    const racers = [1, 2, 3].map(() => new Racer(bundle, "consume", home, SESSION, "level-60"));
    try {
      const rounds = await race(racers, 50, (round) => writeMarker(session(), "level-60", { round }, Date.now()));
      const winners = rounds.map((results) => results.filter((result) => result === "won").length);
      expect(rounds.flat().filter((result) => result.startsWith("error"))).toEqual([]);
      expect(winners).toEqual(Array(50).fill(1));
      expect(readdirSync(markersDir)).toEqual([]);
    } finally {
      for (const racer of racers) racer.stop();
    }
  });

  it("of three processes creating one marker once at one instant, exactly one creates it, every round", async () => {
    const racers = [1, 2, 3].map(() => new Racer(bundle, "create-once", home, SESSION, "announced-60"));
    try {
      const rounds = await race(racers, 50, () => removeMarker(session(), "announced-60"));
      expect(rounds.flat().filter((result) => result.startsWith("error"))).toEqual([]);
      expect(rounds.map((results) => results.filter((result) => result === "won").length)).toEqual(Array(50).fill(1));
      expect(readdirSync(markersDir)).toEqual(["announced-60.json"]);
    } finally {
      for (const racer of racers) racer.stop();
    }
  });
});
