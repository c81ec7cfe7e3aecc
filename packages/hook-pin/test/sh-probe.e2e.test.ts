import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSession } from "@carryover/core";
import { shDecides } from "@carryover/test-fixtures/e2e";
import { afterEach, beforeEach, expect, it } from "vitest";
import { hook } from "../src/hook.ts";

const BIN = join(import.meta.dirname, "../dist/carryover-pin.cjs");
const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-pin-sh-"));
  mkdirSync(join(root, "proj/.claude/carryover"), { recursive: true });
  mkdirSync(join(root, "home/.claude/carryover"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The sh prelude's verdict and the Node probe's on the same files and environment. */
function verdicts() {
  const projectDir = join(root, "proj");
  const env = { HOME: join(root, "home"), CLAUDE_PROJECT_DIR: projectDir, CLAUDE_CODE_SESSION_ID: SESSION };
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
  const nodeFindsNothing = hook.probe!({ name: "pin", payload, env, nowMs: Date.now(), projectDir, session }) === null;
  return { sh: shDecides(BIN, "UserPromptSubmit", env), node: nodeFindsNothing };
}

const projectPin = () => join(root, "proj/.claude/carryover/pinned.md");
const userPin = () => join(root, "home/.claude/carryover/pinned.md");

it.each([
  ["nothing pinned", () => {}, true],
  ["an empty project pinned.md", () => writeFileSync(projectPin(), ""), true],
  [
    "an empty pinned.md in both places",
    () => {
      writeFileSync(projectPin(), "");
      writeFileSync(userPin(), "");
    },
    true,
  ],
  ["a project pinned.md with bytes", () => writeFileSync(projectPin(), "- keep it\n"), false],
  ["a user pinned.md with bytes", () => writeFileSync(userPin(), "- keep it\n"), false],
  [
    "a linked pinned.md",
    () => {
      writeFileSync(join(root, "real.md"), "x\n");
      symlinkSync(join(root, "real.md"), projectPin());
    },
    false,
  ],
  ["a dangling link as pinned.md", () => symlinkSync(join(root, "gone.md"), userPin()), false],
  ["a dir where pinned.md goes", () => mkdirSync(projectPin()), false],
])("sh and Node agree on a prompt with %s", (_, setup, shDecidesIt) => {
  setup();
  const { sh, node } = verdicts();
  expect(sh).toBe(shDecidesIt);
  if (sh) expect(node).toBe(true);
});
