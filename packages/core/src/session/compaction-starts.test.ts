import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { compactionStartBefore, readCompactionStarts, recordCompactionStart } from "./compaction-starts.ts";
import { openSession } from "./session.ts";

const SESSION = "403d97d7-4487-42f5-859f-548a2f3d8b6f";
const MIN = 60_000;
let root: string;
let env: Record<string, string>;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-starts-"));
  env = { HOME: root };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it("keeps the starts in order, the latest 50", () => {
  const session = openSession(env, SESSION);
  expect(readCompactionStarts(session)).toEqual([]);
  for (let i = 1; i <= 52; i++) recordCompactionStart(session, i * MIN);
  const starts = readCompactionStarts(openSession(env, SESSION));
  expect(starts).toHaveLength(50);
  expect([starts[0], starts.at(-1)]).toEqual([3 * MIN, 52 * MIN]);
});

it("reads nothing from a file that is not a list of times, or a link", () => {
  const session = openSession(env, SESSION);
  mkdirSync(session.dir, { recursive: true });
  writeFileSync(join(session.dir, "compaction-starts.json"), '{"atMs": 5}');
  expect(readCompactionStarts(session)).toEqual([]);
  writeFileSync(join(session.dir, "compaction-starts.json"), '[5, "6", null, 7');
  expect(readCompactionStarts(session)).toEqual([]);
  rmSync(join(session.dir, "compaction-starts.json"));
  writeFileSync(join(root, "elsewhere.json"), "[5]");
  symlinkSync(join(root, "elsewhere.json"), join(session.dir, "compaction-starts.json"));
  expect(readCompactionStarts(session)).toEqual([]);
});

it("names a compaction by the latest start after the previous one, within 15 minutes before it", () => {
  const starts = [10 * MIN, 30 * MIN, 31 * MIN];
  expect(compactionStartBefore(33 * MIN, 20 * MIN, starts)).toBe(31 * MIN);
  // A start from before the previous compaction is that one's.
  expect(compactionStartBefore(12 * MIN, 11 * MIN, starts)).toBe(12 * MIN);
  // A summary does not take over 15 minutes: that start was a compaction that never finished.
  expect(compactionStartBefore(50 * MIN, null, starts)).toBe(50 * MIN);
  // Nothing after the recorded time counts.
  expect(compactionStartBefore(30.5 * MIN, null, starts)).toBe(30 * MIN);
});
