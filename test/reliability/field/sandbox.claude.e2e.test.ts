// #17.1: Claude Code's own sandbox on (`"sandbox": {"enabled": true}`, bubblewrap and socat from Debian). Observed
// on 2.1.332: a sandboxed Bash command gets TMPDIR=CLAUDE_CODE_TMPDIR=<the TMPDIR Claude Code started with, or
// /tmp>/claude-<uid> and SANDBOX_RUNTIME=1, and may write only there, in the working directory and in /dev/shm
// (not in HOME, not in /tmp); hooks run outside the sandbox with the TMPDIR Claude Code was started with.
// Without socat, Claude Code prints "Sandbox disabled: … socat not installed" and runs commands unsandboxed.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterEach, expect, test } from "vitest";
import { createSandbox, type Sandbox } from "../../../test-fixtures/e2e/index.ts";
import { recordFigures } from "../figures.ts";
import {
  bashOutput,
  carryoverHooks,
  compactAndContinue,
  compactPrep,
  DECISION,
  filledState,
  installSkill,
  sharedTmp,
  stateCli,
} from "./_field.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

test("sandbox on: /compact-prep saves the state where pre-compact and recovery find it, asking nothing", async () => {
  sandbox = await createSandbox({
    settings: { sandbox: { enabled: true }, hooks: carryoverHooks("pre-compact", "post-compact", "recovery") },
  });
  const s = sandbox;
  s.env.TMPDIR = sharedTmp(s);
  const run = { sessionId: randomUUID(), skillDir: installSkill(s) };

  // Where the state goes, as a sandboxed Bash command sees it; the same command shows the sandbox is on.
  const output = await bashOutput(
    s,
    `${stateCli(run, "path")}; touch "$HOME/.probe" 2>/dev/null || echo "HOME is read-only"`,
    run,
  );
  const [statePath, sandboxed] = output.trim().split("\n");
  expect(sandboxed).toBe("HOME is read-only");

  const prep = await compactPrep(s, run, statePath!);
  expect(prep.json?.permission_denials).toEqual([]);
  expect(prep.result).toBe(`Compact prep complete: ${statePath}. Please run \`/compact\`.`);
  expect(readFileSync(statePath!, "utf8")).toBe(filledState());

  const { steering, afterCompaction } = await compactAndContinue(s, run);
  expect(steering).toContain(DECISION);
  expect(afterCompaction).toContain(`Compact-prep state: ${statePath}, written through /compact-prep`);
  recordFigures("field-sandbox", { statePath: statePath!.replace(s.root, "<sandbox>"), permissionDenials: 0 });
});
