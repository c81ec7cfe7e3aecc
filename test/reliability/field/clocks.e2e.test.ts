// #17.8: clocks. A machine whose clock ran 10 minutes fast for a while (a VM resumed, NTP stepping it back later):
// libfaketime (Debian's faketime) in the env moves Claude Code 2.1.332's clock, its transcript's timestamps and
// every hook's, since hooks inherit the env. A compaction recorded then carries a time 10 min ahead; the
// /compact-prep state saved just after it, by the corrected clock, has an mtime before that time.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, expect, test } from "vitest";
import { createSandbox, expectSuccess, runCompact, type Sandbox } from "../../../test-fixtures/e2e/index.ts";
import { recordFigures } from "../figures.ts";
import {
  bashOutput,
  carryoverHooks,
  compactAndContinue,
  compactPrep,
  DECISION,
  installSkill,
  stateCli,
} from "./_field.ts";

const LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";
const FAST_MS = 10 * 60_000;

let sandbox: Sandbox | undefined;
beforeAll(() => {
  if (!existsSync(LIBFAKETIME)) throw new Error(`${LIBFAKETIME} is missing: apt-get install -y faketime`);
});
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

test("a compaction recorded 10 min fast does not make the state saved after it stale", async () => {
  sandbox = await createSandbox({ settings: { hooks: carryoverHooks("pre-compact", "post-compact", "recovery") } });
  const s = sandbox;
  const run = { sessionId: randomUUID(), skillDir: installSkill(s) };
  const statePath = (await bashOutput(s, stateCli(run, "path"), run)).trim();
  const sessionDir = join(s.claudeDir, "carryover", "sessions", run.sessionId);

  // The first compaction, with nothing saved yet, while the clock runs 10 min fast.
  const fast = { LD_PRELOAD: LIBFAKETIME, FAKETIME: `+${FAST_MS / 60_000}m`, FAKETIME_DONT_FAKE_MONOTONIC: "1" };
  const before = Date.now();
  expectSuccess(await runCompact(s, run.sessionId, undefined, { env: fast }));
  const [first] = ledger(sessionDir);
  expect(first!.atMs, "the compaction's recorded time is 10 min ahead").toBeGreaterThan(before + FAST_MS - 60_000);
  const snapshot = join(sessionDir, "snapshot.md");
  const firstSnapshot = { text: readFileSync(snapshot, "utf8"), mtimeMs: statSync(snapshot).mtimeMs };

  // The clock is right again: /compact-prep saves the state, then the next compaction.
  await compactPrep(s, run, statePath);
  expect(statSync(statePath).mtimeMs).toBeLessThan(first!.atMs);
  const { steering, afterCompaction } = await compactAndContinue(s, run);

  expect(steering).toContain(DECISION);
  // pre-compact took the state as saved since the previous compaction: no second snapshot.
  expect(readFileSync(snapshot, "utf8")).toBe(firstSnapshot.text);
  expect(statSync(snapshot).mtimeMs).toBe(firstSnapshot.mtimeMs);
  // recovery points to the state as current, and not to the older snapshot.
  expect(afterCompaction).toContain(`Compact-prep state: ${statePath}, written through /compact-prep, saved `);
  expect(afterCompaction).toContain("after the previous compaction and before this one by the compaction count");
  expect(afterCompaction).not.toContain("predates");
  expect(afterCompaction).not.toContain("Mechanical snapshot");
  recordFigures("field-clocks", { clockAheadMin: FAST_MS / 60_000, snapshotsAdded: 0, staleSaid: false });
});

function ledger(sessionDir: string): Array<{ atMs: number }> {
  return readFileSync(join(sessionDir, "compactions.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { atMs: number });
}
