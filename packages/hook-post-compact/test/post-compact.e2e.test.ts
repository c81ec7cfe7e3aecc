import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/carryover-post-compact.cjs");
const CAPTURED = join(import.meta.dirname, "../../../test-fixtures/payloads/post-compact.auto.json");
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-post-compact-e2e-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function spawnHook(stdin: string) {
  return spawnSync(BIN, [], { input: stdin, env: { PATH: process.env.PATH, HOME: home }, encoding: "utf8" });
}

it("the built executable files the captured auto-compaction payload and prints nothing", () => {
  const payload = JSON.parse(readFileSync(CAPTURED, "utf8"));
  const result = spawnHook(JSON.stringify(payload));
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("");
  const sessionDir = join(home, ".claude/carryover/sessions", payload.session_id);
  expect(JSON.parse(readFileSync(join(sessionDir, "markers/compacted.json"), "utf8")).data).toEqual({
    trigger: "auto",
    promptId: payload.prompt_id,
  });
  expect(readFileSync(join(sessionDir, "compactions.jsonl"), "utf8")).toContain("MOCK SUMMARY 4");
});

it("fails open on garbage: exit 0, nothing printed, one log line", () => {
  const result = spawnHook("{not json");
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("");
  expect(readFileSync(join(home, ".claude/carryover/log/carryover.log"), "utf8")).toMatch(
    /post-compact: stdin is not JSON/,
  );
});
