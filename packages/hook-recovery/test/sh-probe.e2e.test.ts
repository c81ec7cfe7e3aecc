import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSession } from "@carryover/core";
import { shDecides } from "@carryover/test-fixtures/e2e";
import { afterEach, beforeEach, expect, it } from "vitest";
import { hook } from "../src/hook.ts";

const BIN = join(import.meta.dirname, "../dist/carryover-recovery.cjs");
const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-recovery-sh-"));
  mkdirSync(join(root, "proj"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The sh prelude's verdict and the Node probe's on the same files and environment. */
function verdicts(extraEnv: Record<string, string> = {}) {
  const projectDir = join(root, "proj");
  const env = {
    HOME: join(root, "home"),
    CLAUDE_PROJECT_DIR: projectDir,
    CLAUDE_CODE_SESSION_ID: SESSION,
    ...extraEnv,
  };
  const payload = {
    session_id: SESSION,
    cwd: projectDir,
    hook_event_name: "UserPromptSubmit",
    prompt: "go on",
    transcript_path: "",
    prompt_id: "p",
    permission_mode: "default",
  };
  const session = openSession(env, SESSION);
  const nodeFindsNothing =
    hook.probe!({ name: "recovery", payload, env, nowMs: Date.now(), projectDir, session }) === null;
  return { sh: shDecides(BIN, "UserPromptSubmit", env), node: nodeFindsNothing };
}

const markers = (claudeDir = join(root, "home/.claude")) => {
  const dir = join(claudeDir, "carryover/sessions", SESSION, "markers");
  mkdirSync(dir, { recursive: true });
  return dir;
};

it.each([
  ["no session dir yet", () => {}, true],
  ["a session dir without markers", () => markers(), true],
  ["another marker", () => writeFileSync(join(markers(), "level-60.json"), "{}"), true],
  ["a compaction marker", () => writeFileSync(join(markers(), "compacted.json"), "{}"), false],
  [
    "a dangling link where the marker goes",
    () => symlinkSync(join(root, "gone"), join(markers(), "compacted.json")),
    false,
  ],
])("sh and Node agree on a prompt with %s", (_, setup, shDecidesIt) => {
  setup();
  const { sh, node } = verdicts();
  expect(sh).toBe(shDecidesIt);
  if (sh) expect(node).toBe(true);
});

it("looks under CLAUDE_CONFIG_DIR as Node does", () => {
  const configDir = join(root, "config");
  writeFileSync(join(markers(configDir), "compacted.json"), "{}");
  expect(verdicts({ CLAUDE_CONFIG_DIR: configDir })).toEqual({ sh: false, node: false });
  expect(verdicts()).toEqual({ sh: true, node: true });
});
