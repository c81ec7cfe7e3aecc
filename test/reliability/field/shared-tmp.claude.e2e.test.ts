// #17.2: several users on one /tmp, each running the real CLI as their own uid (setpriv; root only). Observed on
// Claude Code 2.1.332: it keeps its own per-user dir <CLAUDE_CODE_TMPDIR or TMPDIR or /tmp>/claude-<uid> (0700),
// and refuses to start at all when another user made that dir first: "Temp directory … is owned by uid …,
// expected …. Refusing to use it — another user may have pre-created it. Set CLAUDE_CODE_TMPDIR to a directory
// you control, or ask an administrator to remove it."
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { asUser, createSandbox, runPrint, type Sandbox } from "../../../test-fixtures/e2e/index.ts";
import { recordFigures } from "../figures.ts";
import { STATE_CLI } from "../hooks.ts";
import {
  bashOutput,
  carryoverHooks,
  compactAndContinue,
  compactPrep,
  DECISION,
  filledState,
  installSkill,
  type SkillRun,
  stateCli,
} from "./_field.ts";

const ALICE = 4243;
const BOB = 4244;
const isRoot = process.getuid?.() === 0;

let shared: string;
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.cleanup();
  rmSync(shared, { recursive: true, force: true });
});

/** One user's machine account: HOME and project owned by `uid`, carryover's hooks and the skill installed. */
async function user(uid: number, env: Record<string, string> = {}): Promise<{ sandbox: Sandbox; run: SkillRun }> {
  const sandbox = await createSandbox({
    uid,
    env: { TMPDIR: shared, ...env },
    settings: { hooks: carryoverHooks("pre-compact", "post-compact", "recovery") },
  });
  sandboxes.push(sandbox);
  return { sandbox, run: { sessionId: randomUUID(), skillDir: installSkill(sandbox), uid } };
}

/** /compact-prep, /compact and a prompt as that user: their decisions reach the summarizer, recovery their state. */
async function saveAndRecover(
  { sandbox, run }: { sandbox: Sandbox; run: SkillRun },
  decision: string,
  started = false,
): Promise<string> {
  const statePath = (await bashOutput(sandbox, stateCli(run, "path"), run, started)).trim();
  await compactPrep(sandbox, run, statePath, filledState(decision));
  const { steering, afterCompaction } = await compactAndContinue(sandbox, run);
  expect(steering).toContain(decision);
  expect(afterCompaction).toContain(`Compact-prep state: ${statePath}, written through /compact-prep`);
  return statePath;
}

/** Runs a command as `uid` outside Claude Code, the way a user types it. */
function runAs(
  uid: number,
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("setpriv", [...asUser(uid), command, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(!isRoot)("two users on one /tmp (root only: setpriv to other uids)", () => {
  test("each user's /compact-prep state is saved and recovered, whoever ran it first", async () => {
    shared = sharedDir();
    const alicePath = await saveAndRecover(await user(ALICE), "Rejected for Alice: the regex parser.");
    const bobPath = await saveAndRecover(await user(BOB), "Rejected for Bob: the hand-written lexer.");
    expect(bobPath).not.toBe(alicePath);
    recordFigures("field-shared-tmp", {
      users: 2,
      paths: [alicePath, bobPath].map((path) => path.replace(shared, "<tmp>")),
    });
  });

  test("what another user plants in /tmp first (the old default, dirs on the way) denies nothing", async () => {
    shared = sharedDir();
    const bob = await user(BOB);
    const bobPath = (await bashOutput(bob.sandbox, stateCli(bob.run, "path"), bob.run)).trim();
    const planted = new Set(["claude-compact-state", relative(shared, bobPath).split(sep)[0]!]);
    // Claude Code's own per-user dir is the one place it defends itself (next test).
    planted.delete(`claude-${BOB}`);
    for (const name of planted) {
      mkdirSync(join(shared, name), { mode: 0o700 });
      chownSync(join(shared, name), ALICE, ALICE);
    }
    await saveAndRecover(bob, DECISION, true);
  });

  test("Claude Code's per-user dir squatted: carryover says what it says; CLAUDE_CODE_TMPDIR fixes both", async () => {
    shared = sharedDir();
    const squatted = join(shared, `claude-${BOB}`);
    mkdirSync(squatted, { mode: 0o700 });
    chownSync(squatted, ALICE, ALICE);
    const bob = await user(BOB);

    const refused = await runPrint(bob.sandbox, "hello", { uid: BOB });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`Temp directory ${squatted} is owned by uid ${ALICE}, expected ${BOB}`);
    const init = await runAs(BOB, process.execPath, [STATE_CLI, "init", "--session", bob.run.sessionId], {
      ...bob.sandbox.env,
    });
    expect(init.code).toBe(1);
    expect(init.stderr.trim().split("\n")).toHaveLength(1);
    expect(init.stderr).toMatch(
      new RegExp(`^carryover-state: refusing ${squatted}: owned by uid ${ALICE}, not ${BOB}.*CLAUDE_CODE_TMPDIR`),
    );

    const own = join(bob.sandbox.home, "tmp");
    mkdirSync(own, { mode: 0o700 });
    chownSync(own, BOB, BOB);
    bob.sandbox.env.CLAUDE_CODE_TMPDIR = own;
    const statePath = await saveAndRecover(bob, DECISION);
    expect(statePath.startsWith(`${own}/`)).toBe(true);
  });
});

function sharedDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "carryover-field-tmp-")));
  chmodSync(dir, 0o1777);
  return dir;
}
