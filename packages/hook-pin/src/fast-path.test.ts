import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { nothingPinned } from "./fast-path.ts";

let root: string;
let env: Record<string, string>;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-pin-fast-"));
  env = { HOME: join(root, "home") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function skip(payload: Record<string, unknown>): boolean {
  const full = { session_id: "s-1", ...payload };
  return nothingPinned({ payload: full, env, nowMs: 0, projectDir: join(root, "proj") });
}

it("skips when neither pinned file exists or has bytes, and for SessionStart other than compact", () => {
  expect(skip({ hook_event_name: "UserPromptSubmit" })).toBe(true);
  mkdirSync(join(root, "proj/.claude/carryover"), { recursive: true });
  writeFileSync(join(root, "proj/.claude/carryover/pinned.md"), "");
  expect(skip({ hook_event_name: "UserPromptSubmit" })).toBe(true);
  mkdirSync(join(root, "home/.claude/carryover"), { recursive: true });
  writeFileSync(join(root, "home/.claude/carryover/pinned.md"), "rule");
  expect(skip({ hook_event_name: "UserPromptSubmit" })).toBe(false);
  expect(skip({ hook_event_name: "SessionStart", source: "compact" })).toBe(false);
  expect(skip({ hook_event_name: "SessionStart", source: "startup" })).toBe(true);
});
