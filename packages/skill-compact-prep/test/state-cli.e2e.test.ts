import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compactStatePath } from "@carryover/core";
import { afterEach, beforeEach, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/carryover-state.cjs");
const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-state-e2e-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function state(args: string[], env: Record<string, string> = { CLAUDE_CODE_SESSION_ID: SESSION }) {
  return spawnSync(BIN, args, {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: root, TMPDIR: root, ...env },
    encoding: "utf8",
  });
}

it("the built executable writes, verifies and shows a state file", () => {
  const path = compactStatePath({ TMPDIR: root }, SESSION);
  expect(state(["path"]).stdout).toBe(`${path}\n`);
  expect(state(["init"])).toMatchObject({ status: 0, stdout: `Wrote the template with all 9 headers to ${path}\n` });
  writeFileSync(
    path,
    readFileSync(path, "utf8").replace("## Recovery Notes\n\n(none)", "## Recovery Notes\n\nVerify before deploying."),
  );
  expect(state(["verify"])).toMatchObject({ status: 0, stdout: `${path}: all 9 headers present, in order\n` });
  expect(state(["show"]).stdout).toContain("Verify before deploying.");
});

// The workers' reader is deferred code, loaded on demand: this runs it in the built file.
it("the built executable prints the workers of a transcript Claude Code 2.1.332 wrote", () => {
  // The captured session: three background shells, a monitor and a cron, as the real CLI recorded them.
  const captured = "e5c7a7c4-4f3e-4d55-93e7-7dbd39659ef3";
  const dir = join(root, ".claude/projects/-home-user-proj");
  mkdirSync(dir, { recursive: true });
  copyFileSync(
    join(import.meta.dirname, "../../../test-fixtures/payloads/transcript-sample.workers.jsonl"),
    join(dir, `${captured}.jsonl`),
  );
  const result = state(["workers", "--session", captured]);
  expect(result).toMatchObject({ status: 0, stderr: "" });
  expect(result.stdout).toContain("Still at work:\n- cron `f03a876f` “check the deploy”: `*/7 * * * *` — scheduled\n");
  expect(result.stdout).toContain(
    "- shell `b35d0r3tg` “failing check”: `sleep 1; exit 3` — failed (exit code 3); output: /tmp/claude-0/",
  );
});

it("refuses without a session id: exit 1, one line on stderr, nothing on stdout", () => {
  const result = state(["init"], {});
  expect(result.status).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^carryover-state: no session id: [^\n]*\n$/);
});

it("a bad invocation exits 2 with one line", () => {
  expect(state(["verify", "--force"])).toMatchObject({
    status: 2,
    stdout: "",
    stderr: "carryover-state: --force applies to init only, not verify (see carryover-state help)\n",
  });
});
