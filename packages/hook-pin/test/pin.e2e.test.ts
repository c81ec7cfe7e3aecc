import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { payload } from "@carryover/test-fixtures/payloads";
import { afterEach, beforeEach, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/carryover-pin.cjs");
let root: string;
let home: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-pin-e2e-"));
  home = join(root, "home");
  project = join(root, "proj");
  mkdirSync(project, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function spawnHook(stdin: unknown) {
  return spawnSync(BIN, [], {
    input: typeof stdin === "string" ? stdin : JSON.stringify(stdin),
    env: { PATH: process.env.PATH, HOME: home, CLAUDE_PROJECT_DIR: project },
    encoding: "utf8",
  });
}

function pin(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

it("without a pinned file: exit 0, no output, nothing created under HOME", () => {
  const result = spawnHook(payload("user-prompt-submit"));
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("");
  expect(existsSync(home)).toBe(false);
});

it("the captured UserPromptSubmit and SessionStart(compact) payloads both get the pinned text", () => {
  const projectPin = join(project, ".claude/carryover/pinned.md");
  pin(projectPin, "Ship nothing on Fridays.\n");
  for (const [name, event] of [
    ["user-prompt-submit", "UserPromptSubmit"],
    ["session-start.compact", "SessionStart"],
  ] as const) {
    const result = spawnHook(payload(name));
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: event,
        additionalContext: `Pinned by the user in ${projectPin}:\nShip nothing on Fridays.`,
      },
    });
  }
});

it("fails open on garbage: exit 0, nothing printed, one log line", () => {
  const result = spawnHook("{not json");
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("");
  expect(existsSync(join(home, ".claude/carryover/log/carryover.log"))).toBe(true);
});
