import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { isAutoMemoryEnabled } from "./auto-memory.ts";

let home: string;
let project: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-automemory-"));
  project = join(home, "proj");
  mkdirSync(join(project, ".claude"), { recursive: true });
  mkdirSync(join(home, ".claude"), { recursive: true });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

it("is on unless CLAUDE_CODE_DISABLE_AUTO_MEMORY is set", () => {
  expect(isAutoMemoryEnabled({ HOME: home }, project)).toBe(true);
  expect(isAutoMemoryEnabled({ HOME: home, CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1" }, project)).toBe(false);
  expect(isAutoMemoryEnabled({ HOME: home, CLAUDE_CODE_DISABLE_AUTO_MEMORY: "0" }, project)).toBe(true);
});

it("follows autoMemoryEnabled in the settings, the most specific file winning", () => {
  writeFileSync(join(home, ".claude/settings.json"), JSON.stringify({ autoMemoryEnabled: false }));
  expect(isAutoMemoryEnabled({ HOME: home }, project)).toBe(false);
  writeFileSync(join(project, ".claude/settings.local.json"), JSON.stringify({ autoMemoryEnabled: true }));
  expect(isAutoMemoryEnabled({ HOME: home }, project)).toBe(true);
  writeFileSync(join(project, ".claude/settings.local.json"), "{not json");
  expect(isAutoMemoryEnabled({ HOME: home }, project)).toBe(false);
});
