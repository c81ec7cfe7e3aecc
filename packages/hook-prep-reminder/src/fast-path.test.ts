import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FastPathContext, recordReading, writeMarker } from "@carryover/core";
import { afterEach, beforeEach, expect, it } from "vitest";
import { nothingPending } from "./fast-path.ts";

const SESSION = "7618a028-19c7-4e6b-af14-1fdfaa838f89";
const NOW_MS = 10_000_000;
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-prep-fast-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function skip(): boolean {
  const env = { HOME: home };
  const context: FastPathContext = {
    payload: { session_id: SESSION, hook_event_name: "UserPromptSubmit" },
    env,
    nowMs: NOW_MS,
    projectDir: home,
  };
  return nothingPending(context);
}

/** A reading the statusline recorded `ageMs` ago, vouched for `freshMs` (the default freshReadingMs). */
function reading(ageMs: number, freshMs: number | null = 300_000): void {
  recordReading({ HOME: home }, SESSION, {
    source: "statusline",
    contextTokens: 700_000,
    modelWindowTokens: 1_000_000,
    autoCompactTokens: 967_000,
    atMs: NOW_MS - ageMs,
    ...(freshMs === null ? {} : { freshUntilMs: NOW_MS - ageMs + freshMs }),
  });
}

it("skips with a fresh statusline reading and no level marker", () => {
  reading(1_000);
  expect(skip()).toBe(true);
});

it("does not skip when the statusline raised a level", () => {
  reading(1_000);
  writeMarker({ HOME: home }, SESSION, "level-60", {}, NOW_MS);
  expect(skip()).toBe(false);
});

it("does not skip without a reading or with a stale one: the transcript must be asked", () => {
  expect(skip()).toBe(false);
  expect(existsSync(join(home, ".claude"))).toBe(false);
  reading(300_001);
  expect(skip()).toBe(false);
});

it("judges freshness by what the statusline vouched for, not by config it does not load", () => {
  reading(300_001, 400_000);
  expect(skip()).toBe(true);
  reading(1_000, 500);
  expect(skip()).toBe(false);
  reading(1_000, null);
  expect(skip()).toBe(false);
  reading(-1_000);
  expect(skip()).toBe(false);
});
