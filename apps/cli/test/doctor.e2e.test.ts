// doctor runs every registration exactly as Claude Code would start it: the built CLI and the hooks it ships.

import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { CLI } from "./cli-run.ts";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-doctor-e2e-"));
  mkdirSync(join(home, "proj"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const carryover = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    cwd: join(home, "proj"),
    env: { HOME: home, PATH: process.env.PATH, ...extraEnv },
    encoding: "utf8",
  });
let extraEnv: Record<string, string> = {};

type Check = { status: string; title: string };
const ran = () =>
  (JSON.parse(carryover("doctor", "--json").stdout) as { checks: Check[] }).checks.filter((check) =>
    / runs as registered| does not run as registered/.test(check.title),
  );

it("every registration of an install runs as registered, and one that cannot is named with what it printed", () => {
  expect(carryover("install", "--all").status).toBe(0);
  // A TMPDIR that does not exist (a sandbox's, outside it) is no reason for doctor to stop.
  extraEnv = { TMPDIR: join(home, "no-such-tmp") };
  const checks = ran();
  extraEnv = {};
  expect(checks.length).toBeGreaterThanOrEqual(8);
  expect(checks.filter((check) => check.status !== "ok")).toEqual([]);
  expect(checks.map((check) => check.title)).toContainEqual(
    "carryover-statusline on statusLine (~/.claude/settings.json) runs as registered",
  );

  appendFileSync(join(home, ".claude/carryover/bin/carryover-post-compact"), "\n}} not javascript\n");
  const registration = String.raw`carryover-post-compact on PostCompact \(~/\.claude/settings\.json\)`;
  expect(
    ran()
      .filter((check) => check.status === "fail")
      .map((check) => check.title),
  ).toEqual([expect.stringMatching(new RegExp(`^${registration} does not run as registered: exited 1: SyntaxError`))]);
});

it("a config value the hooks ignore is a warning, not a registration that does not run", () => {
  expect(carryover("install", "--recommended").status).toBe(0);
  // Set where Claude Code hands it to every hook it starts, and so to each run doctor makes.
  const settingsPath = join(home, ".claude/settings.json");
  const settings = JSON.parse(readFileSync(settingsPath, "utf8"));
  writeFileSync(settingsPath, JSON.stringify({ ...settings, env: { CARRYOVER_LEVELS: "abc" } }));
  const report = JSON.parse(carryover("doctor", "--json").stdout) as { ok: boolean; checks: Check[] };
  expect(ran().filter((check) => check.status !== "ok")).toEqual([]);
  expect(report.ok).toBe(true);
  expect(report.checks).toContainEqual(
    expect.objectContaining({
      status: "warn",
      title:
        "ignored, the default stands: CARRYOVER_LEVELS (in ~/.claude/settings.json env): levels: expected a rising " +
        'list of whole percents from 1 to 100, like [60, 85], got "abc"',
    }),
  );
});
