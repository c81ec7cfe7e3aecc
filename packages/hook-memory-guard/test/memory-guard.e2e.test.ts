import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/carryover-memory-guard.cjs");
const PAYLOADS = join(import.meta.dirname, "../../../test-fixtures/payloads");
let root: string;
let home: string;
let project: string;
let memoryIndex: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-memory-guard-e2e-"));
  home = join(root, "home");
  project = join(root, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
  const memoryDir = join(home, ".claude/projects", project.replace(/[^a-zA-Z0-9]/g, "-"), "memory");
  mkdirSync(memoryDir, { recursive: true });
  memoryIndex = join(memoryDir, "MEMORY.md");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A captured payload moved into this sandbox's project. */
function captured(name: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...JSON.parse(readFileSync(join(PAYLOADS, name), "utf8")), cwd: project, ...overrides });
}

function spawnHook(stdin: string) {
  return spawnSync(BIN, [], { input: stdin, env: { PATH: process.env.PATH, HOME: home }, encoding: "utf8" });
}

const entries = (count: number) =>
  `${Array.from({ length: count }, (_, i) => `- [Note ${i + 1}](note-${i + 1}.md) — fact`).join("\n")}\n`;

it("at startup the built executable warns the user about a MEMORY.md past the headroom, and is silent below it", () => {
  writeFileSync(memoryIndex, entries(150));
  const quiet = spawnHook(captured("session-start.startup.print-mode.json"));
  expect(quiet.status).toBe(0);
  expect(quiet.stdout).toBe("");

  writeFileSync(memoryIndex, entries(205));
  const result = spawnHook(captured("session-start.startup.print-mode.json"));
  expect(result.status).toBe(0);
  const output = JSON.parse(result.stdout);
  expect(Object.keys(output)).toEqual(["systemMessage"]);
  expect(output.systemMessage).toContain("lines 201–205 are not loaded into any session");
  expect(output.systemMessage).toContain("  205: - [Note 205](note-205.md) — fact");
});

it("after a Write it speaks only when the file written was this project's MEMORY.md", () => {
  writeFileSync(memoryIndex, entries(185));
  const other = spawnHook(captured("post-tool-use.write.json"));
  expect(other.status).toBe(0);
  expect(other.stdout).toBe("");
  const result = spawnHook(
    captured("post-tool-use.write.json", { tool_input: { file_path: memoryIndex, content: entries(185) } }),
  );
  expect(JSON.parse(result.stdout).systemMessage).toMatch(
    /^MEMORY\.md is at 92% of what Claude Code loads \(185 of 200 lines/,
  );
});

it("fails open on garbage: exit 0, nothing printed, one log line", () => {
  const result = spawnHook("{not json");
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("");
  expect(readFileSync(join(home, ".claude/carryover/log/carryover.log"), "utf8")).toMatch(
    /memory-guard: stdin is not JSON/,
  );
});
