import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { processStartMs } from "../runtime/process-start.ts";
import { loadLastCompaction, predatesCompaction, recordCompaction } from "./last-compaction.ts";
import { openSession } from "./session.ts";

const SESSION = "9c6cd707-b302-43ce-83ed-ec04fb1bd89d";
let home: string;
const session = () => openSession({ HOME: home }, SESSION);

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-last-compaction-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

it("counts the session's compactions and records when the recording process started", () => {
  expect(loadLastCompaction(session())).toBeNull();
  expect(recordCompaction(session(), "p1", 1_000)).toEqual({
    seq: 1,
    startedMs: processStartMs(),
    atMs: 1_000,
    promptId: "p1",
  });
  // The wall clock going back does not make the count go back.
  expect(recordCompaction(session(), "p2", 500).seq).toBe(2);
  expect(loadLastCompaction(session())).toMatchObject({ seq: 2, promptId: "p2", atMs: 500 });
});

it("reads a damaged record as none", () => {
  recordCompaction(session(), "p1", 1_000);
  writeFileSync(join(session().dir, "compaction.json"), "{not json");
  expect(loadLastCompaction(session())).toBeNull();
  writeFileSync(join(session().dir, "compaction.json"), JSON.stringify({ seq: "1", startedMs: 3 }));
  expect(loadLastCompaction(session())).toBeNull();
});

it("tells what a process started before the compaction measured from what one started after", () => {
  const record = { seq: 1, startedMs: 5_000, atMs: 0 };
  expect(predatesCompaction(4_990, record)).toBe(true);
  expect(predatesCompaction(5_000, record)).toBe(true);
  expect(predatesCompaction(5_010, record)).toBe(false);
  expect(predatesCompaction(undefined, record)).toBe(true);
  expect(predatesCompaction(1, null)).toBe(false);
});

it("this process's start time is one value, from before now on the same clock", () => {
  const started = processStartMs();
  expect(processStartMs()).toBe(started);
  expect(started).toBeGreaterThan(0);
});
