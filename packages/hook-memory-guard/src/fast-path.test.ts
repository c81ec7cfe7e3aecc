import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { autoMemoryDir } from "@carryover/core";
import { afterEach, beforeEach, expect, it } from "vitest";
import { nothingToSay } from "./fast-path.ts";

let root: string;
let project: string;
let env: Record<string, string>;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-memory-guard-fast-"));
  project = join(root, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
  env = { HOME: join(root, "home") };
  mkdirSync(autoMemoryDir(env, project), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const skip = (payload: Record<string, unknown>) =>
  nothingToSay({ payload: { session_id: "s", cwd: project, ...payload }, env, nowMs: 0, projectDir: project });
const memoryIndex = () => join(autoMemoryDir(env, project), "MEMORY.md");

it("skips writes to other files without reading MEMORY.md", () => {
  writeFileSync(memoryIndex(), "- x\n".repeat(230));
  expect(skip({ hook_event_name: "PostToolUse", tool_input: { file_path: join(project, "src/a.ts") } })).toBe(true);
  expect(skip({ hook_event_name: "PostToolUse", tool_input: { file_path: memoryIndex() } })).toBe(false);
});

it("skips a session start while MEMORY.md is below the headroom", () => {
  expect(skip({ hook_event_name: "SessionStart", source: "startup" })).toBe(true);
  writeFileSync(memoryIndex(), "- x\n".repeat(159));
  expect(skip({ hook_event_name: "SessionStart", source: "startup" })).toBe(true);
  writeFileSync(memoryIndex(), "- x\n".repeat(160));
  expect(skip({ hook_event_name: "SessionStart", source: "startup" })).toBe(false);
});
