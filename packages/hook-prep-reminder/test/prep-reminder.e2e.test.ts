import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { payload, payloadText } from "@carryover/test-fixtures/payloads";
import { afterEach, beforeEach, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/carryover-prep-reminder.cjs");
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-prep-reminder-e2e-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function spawnHook(stdin: string, env: Record<string, string> = {}) {
  return spawnSync(BIN, [], { input: stdin, env: { PATH: process.env.PATH, HOME: home, ...env }, encoding: "utf8" });
}

/** The captured prompt, pointed at a copy of the captured transcript whose last response reports `tokens`. */
function promptWithTranscript(tokens: number): string {
  const lines = payloadText("transcript-sample.jsonl").trimEnd().split("\n");
  const response = JSON.parse(lines.filter((line) => line.includes('"type":"assistant"')).at(-1)!);
  response.message.usage.input_tokens = tokens;
  const transcript = join(home, "transcript.jsonl");
  writeFileSync(transcript, `${[...lines, JSON.stringify(response)].join("\n")}\n`);
  return JSON.stringify({ ...payload("user-prompt-submit"), transcript_path: transcript, cwd: home });
}

it("the built executable reminds once from the transcript alone (no statusline)", () => {
  const stdin = promptWithTranscript(45_000);
  const env = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" };
  const first = spawnHook(stdin, env);
  expect(first.status).toBe(0);
  expect(JSON.parse(first.stdout)).toMatchObject({
    systemMessage: expect.stringMatching(
      /^Context at 67% of the auto-compact point \(45k of 67k tokens\)\. Run \/compact-prep now/,
    ),
    hookSpecificOutput: {
      hookEventName: "UserPromptSubmit",
      additionalContext: expect.stringMatching(/^Context usage is at 67% /),
    },
  });
  const second = spawnHook(stdin, env);
  expect(second.status).toBe(0);
  expect(second.stdout).toBe("");
});

it("takes the fast path with a fresh statusline reading and nothing pending: no output, nothing written", () => {
  const { session_id: sessionId } = payload("user-prompt-submit");
  const sessionDir = join(home, ".claude/carryover/sessions", sessionId);
  mkdirSync(sessionDir, { recursive: true, mode: 0o700 });
  const atMs = Date.now();
  const reading = {
    source: "statusline",
    contextTokens: 700_000,
    modelWindowTokens: 1_000_000,
    autoCompactTokens: 967_000,
    atMs,
    freshUntilMs: atMs + 300_000,
  };
  writeFileSync(join(sessionDir, "usage.json"), JSON.stringify(reading));
  const result = spawnHook(promptWithTranscript(900_000));
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("");
  expect(existsSync(join(sessionDir, "markers"))).toBe(false);
});

it("fails open on garbage: exit 0, nothing printed, one log line", () => {
  const result = spawnHook("{not json");
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("");
  expect(readFileSync(join(home, ".claude/carryover/log/carryover.log"), "utf8")).toMatch(
    /prep-reminder: stdin is not JSON/,
  );
});
