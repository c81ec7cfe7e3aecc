import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { payload } from "@carryover/test-fixtures/payloads";
import { afterEach, beforeEach, expect, it } from "vitest";
import { boundary, prompt, toolCall } from "./transcript-lines.ts";

// The built executables under strace: a recovery that delivers reads the transcript and the config once.
const BIN = join(import.meta.dirname, "../dist/carryover-recovery.cjs");
const POST_COMPACT = join(import.meta.dirname, "../../hook-post-compact/dist/carryover-post-compact.cjs");
let root: string;
let env: Record<string, string>;
let project: string;
let transcript: string;
let configs: string[];

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-recovery-opens-"));
  project = join(root, "proj");
  env = { PATH: process.env.PATH ?? "", HOME: join(root, "home"), TMPDIR: root, CLAUDE_PROJECT_DIR: project };
  configs = [
    write(join(env.HOME!, ".claude/carryover/config.json"), '{"recovery":{"maxChars":4000}}'),
    write(join(project, ".claude/carryover/config.json"), "{}"),
  ];
  const lines = [prompt("build the parser"), ...toolCall("Bash", { command: "make" })];
  transcript = write(join(root, "t.jsonl"), `${lines.join("\n")}\n`);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** How many times the run opened each file (openat, any flags), from `strace -f -e trace=%file`. */
function opens(bin: string, stdin: Record<string, unknown>): { stdout: string; opened: (path: string) => number } {
  const trace = join(root, "trace.txt");
  const result = spawnSync("strace", ["-f", "-qq", "-e", "trace=%file", "-o", trace, process.execPath, bin], {
    input: JSON.stringify({ ...stdin, transcript_path: transcript, cwd: project }),
    env,
    encoding: "utf8",
  });
  if (result.error) throw new Error(`strace could not run (${result.error.message}): .ci/run installs it`);
  const openCalls = readFileSync(trace, "utf8").matchAll(/open(?:at)?\((?:AT_FDCWD, )?"([^"]+)"/g);
  const paths = [...openCalls].map((match) => match[1]);
  return { stdout: result.stdout, opened: (path) => paths.filter((opened) => opened === path).length };
}

it("SessionStart(compact) opens the transcript and each config file once", () => {
  const { stdout, opened } = opens(BIN, payload("session-start.compact"));
  expect(JSON.parse(stdout).hookSpecificOutput.additionalContext).toMatch(/^carryover recovery: /);
  expect([transcript, ...configs].map(opened)).toEqual([1, 1, 1]);
});

it("the first prompt after a compaction nothing delivered yet opens the transcript and each config file once", () => {
  const start = payload("session-start.compact");
  const compacted = { ...payload("post-compact.auto"), session_id: start.session_id, prompt_id: start.prompt_id };
  expect(opens(POST_COMPACT, compacted).stdout).toBe("");
  writeFileSync(transcript, `${boundary("auto", new Date().toISOString())}\n`, { flag: "a" });
  const { stdout, opened } = opens(BIN, { ...payload("user-prompt-submit"), session_id: start.session_id });
  expect(JSON.parse(stdout).hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
  expect([transcript, ...configs].map(opened)).toEqual([1, 1, 1]);
});
