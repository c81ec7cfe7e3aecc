import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  return spawnSync(BIN, args, { cwd: root, env: { PATH: process.env.PATH, HOME: root, TMPDIR: root, ...env }, encoding: "utf8" });
}

it("the built executable writes, verifies and shows a state file", () => {
  const path = compactStatePath({ TMPDIR: root }, SESSION);
  expect(state(["path"]).stdout).toBe(`${path}\n`);
  expect(state(["init"])).toMatchObject({ status: 0, stdout: `Wrote the template with all 9 headers to ${path}\n` });
  writeFileSync(path, readFileSync(path, "utf8").replace("## Recovery Notes\n\n(none)", "## Recovery Notes\n\nVerify before deploying."));
  expect(state(["verify"])).toMatchObject({ status: 0, stdout: `${path}: all 9 headers present, in order\n` });
  expect(state(["show"]).stdout).toContain("Verify before deploying.");
});

it("refuses without a session id: exit 1, one line on stderr, nothing on stdout", () => {
  const result = state(["init"], {});
  expect(result.status).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^carryover-state: no session id: [^\n]*\n$/);
});

it("a bad invocation exits 2 with one line", () => {
  expect(state(["verify", "--force"])).toMatchObject({ status: 2, stdout: "", stderr: "carryover-state: --force applies to init only, not verify (see carryover-state help)\n" });
});
