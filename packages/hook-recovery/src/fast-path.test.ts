import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { markCompacted } from "@carryover/core";
import { afterEach, beforeEach, expect, it } from "vitest";
import { nothingToRecover } from "./fast-path.ts";

const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-recovery-fast-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function skip(payload: Record<string, unknown>): boolean {
  const env = { HOME: home };
  return nothingToRecover({ payload: { session_id: SESSION, ...payload }, env, nowMs: 0, projectDir: home });
}

it("skips every SessionStart but compact, and prompts while no compaction is pending", () => {
  expect(skip({ hook_event_name: "SessionStart", source: "startup" })).toBe(true);
  expect(skip({ hook_event_name: "SessionStart", source: "compact" })).toBe(false);
  expect(skip({ hook_event_name: "UserPromptSubmit" })).toBe(true);
  markCompacted({ HOME: home }, SESSION, { trigger: "auto" }, 0);
  expect(skip({ hook_event_name: "UserPromptSubmit" })).toBe(false);
});
