// A hook installed twice over, set up with the real Claude Code 2.1.332: as a plugin (`claude plugin install`)
// and by carryover, or in two settings files. What Claude Code runs twice, carryover notices; what it dedups,
// carryover does not flag.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSandbox, expectSuccess, runPrint, type Sandbox } from "@carryover/test-fixtures/e2e";
import { afterEach, expect, it } from "vitest";
import { carryover, claude } from "./cli-run.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

/** How many times Claude Code ran carryover's recovery on one prompt's UserPromptSubmit. */
async function recoveryRuns(box: Sandbox): Promise<number> {
  const debug = join(box.root, `debug-${Date.now()}.txt`);
  expectSuccess(await runPrint(box, "one prompt", { args: ["--debug-file", debug] }));
  return readFileSync(debug, "utf8")
    .split("\n")
    .filter((line) => /UserPromptSubmit.*carryover-recovery.*status 0/.test(line)).length;
}

const doctorFailures = (box: Sandbox) => {
  const result = spawnSync(process.execPath, [join(import.meta.dirname, "../dist/carryover.cjs"), "doctor", "--json"], {
    cwd: box.project,
    env: box.env,
    encoding: "utf8",
  });
  return (JSON.parse(result.stdout) as { checks: Array<{ status: string; title: string }> }).checks
    .filter((check) => check.status === "fail")
    .map((check) => check.title);
};

it("a hook that is a plugin too, before or after: install refuses, list and doctor see it, both run", async () => {
  sandbox = await createSandbox();
  const market = join(sandbox.root, "market");
  carryover(sandbox, ["marketplace", market]);
  claude(sandbox, ["plugin", "marketplace", "add", market]);
  claude(sandbox, ["plugin", "install", "recovery@carryover"]);
  expect(carryover(sandbox, ["list"])).toMatch(/^recovery .* installed: plugin recovery@carryover \(user\)\n/m);

  const refused = carryover(sandbox, ["install", "recovery"], 1);
  expect(refused).toBe("");
  carryover(sandbox, ["install", "recovery", "--force"]);
  expect(carryover(sandbox, ["list"])).toMatch(
    /^recovery .* installed: user, plugin recovery@carryover \(user\) \(runs twice/m,
  );
  expect(doctorFailures(sandbox)).toContain(
    "recovery runs twice: registered in ~/.claude/settings.json and installed as the plugin recovery@carryover (user)",
  );
  expect(await recoveryRuns(sandbox)).toBe(2);

  claude(sandbox, ["plugin", "uninstall", "recovery@carryover"]);
  expect(doctorFailures(sandbox)).toEqual([]);
  expect(await recoveryRuns(sandbox)).toBe(1);

  // The other way round: the plugin installed over carryover's install is noticed as well.
  claude(sandbox, ["plugin", "install", "recovery@carryover"]);
  const twice = /^recovery .* installed: user, plugin recovery@carryover \(user\) \(runs twice/m;
  expect(carryover(sandbox, ["list"])).toMatch(twice);
  expect(doctorFailures(sandbox)).toContain(
    "recovery runs twice: registered in ~/.claude/settings.json and installed as the plugin recovery@carryover (user)",
  );
});

it("the same entry in two settings files runs once and is not flagged; two forms of it run twice and are", async () => {
  sandbox = await createSandbox();
  carryover(sandbox, ["install", "recovery"]);
  carryover(sandbox, ["install", "recovery", "--scope", "local"]);
  expect(doctorFailures(sandbox)).toEqual([]);
  expect(await recoveryRuns(sandbox)).toBe(1);

  // An earlier version's form (`node <file>`) left in the project's settings beside today's in the user's.
  carryover(sandbox, ["uninstall", "recovery", "--scope", "local"]);
  const bin = join(sandbox.claudeDir, "carryover/bin/carryover-recovery");
  mkdirSync(join(sandbox.project, ".claude"), { recursive: true });
  const old = {
    hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "node", args: [bin], timeout: 30 }] }] },
  };
  writeFileSync(join(sandbox.project, ".claude/settings.json"), JSON.stringify(old));
  expect(doctorFailures(sandbox)).toEqual([
    "carryover-recovery runs 2 times on UserPromptSubmit: registered differently in ~/.claude/settings.json, " +
      `${join(sandbox.project, ".claude/settings.json")}`,
  ]);
  expect(await recoveryRuns(sandbox)).toBe(2);
});
