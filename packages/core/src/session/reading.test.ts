import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UsageReading } from "../claude/usage.ts";
import { recordCompaction } from "./last-compaction.ts";
import {
  currentUsage,
  forgetReading,
  isFresh,
  loadReading,
  recordReading,
  transcriptUsage,
  type UsageQuery,
} from "./reading.ts";
import { openSession } from "./session.ts";

const SESSION = "9c6cd707-b302-43ce-83ed-ec04fb1bd89d";
const PAYLOADS = join(import.meta.dirname, "../../../../test-fixtures/payloads");
let home: string;
let env: { HOME: string };
// A new session per call, as a new process would open it: nothing is trusted from an earlier call.
const session = () => openSession(env, SESSION);

const statusline: UsageReading = {
  source: "statusline",
  contextTokens: 500_000,
  modelWindowTokens: 1_000_000,
  autoCompactTokens: 967_000,
  model: "claude-opus-5-5",
  atMs: 10_000,
};

function query(overrides: Partial<UsageQuery> = {}): UsageQuery {
  return {
    session: session(),
    transcriptPath: join(PAYLOADS, "transcript-sample.jsonl"),
    projectDir: join(home, "proj"),
    nowMs: 20_000,
    freshReadingMs: 300_000,
    contextWindowTokens: 0,
    ...overrides,
  };
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-reading-"));
  env = { HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("recorded readings", () => {
  it("keeps the newest reading in a private file", () => {
    recordReading(session(), statusline);
    recordReading(session(), { ...statusline, contextTokens: 600_000, atMs: 11_000 });
    expect(loadReading(session())).toEqual({ ...statusline, contextTokens: 600_000, atMs: 11_000 });
    expect(statSync(join(home, ".claude/carryover/sessions", SESSION, "usage.json")).mode & 0o777).toBe(0o600);
  });

  it("loads null, creating nothing, when there is none", () => {
    expect(loadReading(session())).toBeNull();
    expect(readdirSync(home)).toEqual([]);
  });

  it("loads null for a corrupt file and for a symlink", () => {
    const dir = join(home, ".claude/carryover/sessions", SESSION);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, "usage.json"), '{"contextTokens":');
    expect(loadReading(session())).toBeNull();
    writeFileSync(join(dir, "usage.json"), '{"contextTokens":"many","atMs":1}');
    expect(loadReading(session())).toBeNull();
    rmSync(join(dir, "usage.json"));
    writeFileSync(join(home, "planted.json"), JSON.stringify(statusline));
    symlinkSync(join(home, "planted.json"), join(dir, "usage.json"));
    expect(loadReading(session())).toBeNull();
  });

  it("makes a missing reading only in a private session dir", () => {
    const dir = join(home, ".claude/carryover/sessions", SESSION);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o777);
    expect(() => recordReading(session(), statusline)).toThrow(
      expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringMatching(/writable by others/) }),
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("reads a reading padded by an in-place overwrite of a longer one", () => {
    recordReading(session(), { ...statusline, model: "a-model-with-a-much-longer-name-than-the-next" });
    recordReading(session(), statusline);
    expect(loadReading(session())).toEqual(statusline);
  });

  it("forgets the reading (after a compaction), and forgetting none is no error", () => {
    recordReading(session(), statusline);
    forgetReading(session());
    expect(loadReading(session())).toBeNull();
    forgetReading(session());
    forgetReading(openSession(env, "0f0f0f0f-aaaa-bbbb-cccc-000000000000"));
  });

  it("isFresh compares the reading's age with the allowance", () => {
    expect(isFresh(statusline, 10_000 + 300_000, 300_000)).toBe(true);
    expect(isFresh(statusline, 10_001 + 300_000, 300_000)).toBe(false);
  });
});

describe("currentUsage", () => {
  it("uses a fresh statusline reading as is", () => {
    recordReading(session(), statusline);
    expect(currentUsage(query())).toEqual(statusline);
  });

  it("falls back to the transcript when the reading is stale, keeping the window the statusline reported", () => {
    recordReading(session(), { ...statusline, modelWindowTokens: 200_000, model: "claude-sonnet-4-5" });
    expect(currentUsage(query({ nowMs: 10_000 + 300_001 }))).toEqual({
      source: "transcript",
      contextTokens: 100,
      modelWindowTokens: 200_000,
      autoCompactTokens: 167_000,
      model: "claude-opus-5-5",
      atMs: 310_001,
    });
  });

  it("without any reading, sizes the transcript's usage by the model's window", () => {
    expect(currentUsage(query())).toMatchObject({
      source: "transcript",
      contextTokens: 100,
      modelWindowTokens: 1_000_000,
      autoCompactTokens: 967_000,
    });
  });

  it("honours the configured window, the env and the project's Claude Code settings", () => {
    expect(currentUsage(query({ contextWindowTokens: 400_000 }))).toMatchObject({
      modelWindowTokens: 400_000,
      autoCompactTokens: 367_000,
    });
    const withEnv = query({ session: openSession({ ...env, CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" }, SESSION) });
    expect(currentUsage(withEnv)?.autoCompactTokens).toBe(67_000);
    mkdirSync(join(home, "proj/.claude"), { recursive: true });
    writeFileSync(join(home, "proj/.claude/settings.json"), JSON.stringify({ autoCompactWindow: 200_000 }));
    // Settings files are read once per env (per hook process): a new process sees the file just written.
    expect(currentUsage(query({ session: openSession({ ...env }, SESSION) }))?.autoCompactTokens).toBe(167_000);
    expect(
      currentUsage(query({ session: openSession({ ...env, DISABLE_AUTO_COMPACT: "1" }, SESSION) }))?.autoCompactTokens,
    ).toBeNull();
  });

  it("is null with no reading and no usable transcript", () => {
    expect(currentUsage(query({ transcriptPath: undefined }))).toBeNull();
    expect(currentUsage(query({ transcriptPath: join(home, "missing.jsonl") }))).toBeNull();
    expect(transcriptUsage(query({ transcriptPath: undefined }), statusline)).toBeNull();
  });
});

describe("a reading and the session's last compaction", () => {
  it("is dropped when the process that took it started before PostCompact's, however late it was written", () => {
    const compaction = recordCompaction(session(), "p1", 50_000);
    recordReading(session(), { ...statusline, takenByProcessStartedMs: compaction.startedMs - 1_000 });
    expect(loadReading(session())).toBeNull();
    // One started in PostCompact's own clock tick cannot be told apart: it counts as before.
    recordReading(session(), { ...statusline, takenByProcessStartedMs: compaction.startedMs });
    expect(loadReading(session())).toBeNull();
    recordReading(session(), { ...statusline, takenByProcessStartedMs: compaction.startedMs + 10 });
    expect(loadReading(session())).toMatchObject({ contextTokens: 500_000 });
  });

  // A reading from before this rule.
  it("is dropped when it says nothing of who took it, once a compaction is recorded", () => {
    recordReading(session(), statusline);
    expect(loadReading(session())).toMatchObject({ contextTokens: 500_000 });
    recordCompaction(session(), "p1", 50_000);
    expect(loadReading(session())).toBeNull();
  });
});
