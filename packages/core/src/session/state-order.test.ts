import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { recordCompaction } from "./last-compaction.ts";
import { compactStatePath, ensureCompactStateDir } from "./paths.ts";
import { openSession } from "./session.ts";
import { orderStateByCount, readStateStamp, stampCompactState } from "./state-order.ts";

const SESSION = "9c6cd707-b302-43ce-83ed-ec04fb1bd89d";
let root: string;
let env: Record<string, string>;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-state-order-"));
  env = { HOME: join(root, "home"), TMPDIR: root };
  ensureCompactStateDir(env);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it("stamps the count PostCompact recorded, 0 before any, and reads it back", () => {
  const path = compactStatePath(env, SESSION);
  expect(readStateStamp(path)).toBeNull();
  stampCompactState(env, SESSION);
  expect(readStateStamp(path)).toBe(0);
  recordCompaction(openSession(env, SESSION), "p1", 5_000);
  stampCompactState(env, SESSION);
  expect(readStateStamp(path)).toBe(1);
  for (const damaged of ["{", '{"compactions":-1}', '{"compactions":"1"}', "null"]) {
    writeFileSync(`${path}.meta`, damaged);
    expect(readStateStamp(path)).toBeNull();
  }
});

// Compaction 2 was recorded (seq 2); the wall times say nothing here, whatever they are.
const last = { seq: 2, startedMs: 0, atMs: 10 * 60_000, promptId: "p2" };

it("orders by the count before PostCompact ran for this compaction (PreCompact, SessionStart(compact))", () => {
  const third = { promptId: "p3", atMs: 0 };
  expect(orderStateByCount(2, last, third)).toBe("since-previous");
  expect(orderStateByCount(1, last, third)).toBe("before-previous");
  expect(orderStateByCount(0, last, third)).toBe("before-previous");
});

it("orders by the count after PostCompact ran for it (the prompt's recovery)", () => {
  const second = { promptId: "p2", atMs: 0 };
  expect(orderStateByCount(2, last, second)).toBe("after");
  expect(orderStateByCount(1, last, second)).toBe("since-previous");
  expect(orderStateByCount(0, last, second)).toBe("before-previous");
});

it("leaves it to the clock when a count is missing or the two disagree", () => {
  expect(orderStateByCount(null, last, { promptId: "p3", atMs: 0 })).toBeNull();
  expect(orderStateByCount(0, null, { promptId: "p1", atMs: 0 })).toBeNull();
  expect(orderStateByCount(3, last, { promptId: "p3", atMs: 0 })).toBeNull();
});
