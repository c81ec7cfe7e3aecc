// Ctrl-C while install writes: the built CLI, interrupted for real at one moment after another of its run.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { sha256Of } from "../src/release/manifest.ts";
import { CLI } from "./cli-run.ts";
import { contents } from "./kit.ts";

const SETTINGS = '{\n  "model": "opus"\n}\n';
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-interrupt-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("SIGINT at any moment of install --all leaves the files as they were, or a complete install", async () => {
  const home = join(root, "home");
  const env = { HOME: home, PATH: process.env.PATH, TMPDIR: join(root, "tmp") };
  const outcomes = new Set<string>();
  for (let delayMs = 20; delayMs <= 590; delayMs += 30) {
    rmSync(home, { recursive: true, force: true });
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude/settings.json"), SETTINGS);
    const before = contents(home);
    const install = spawn(process.execPath, [CLI, "install", "--all"], { cwd: root, env, stdio: "ignore" });
    const exited = new Promise<number | null>((resolve) => install.once("exit", (code) => resolve(code)));
    await pause(delayMs);
    install.kill("SIGINT");
    await exited;
    const installed = existsSync(join(home, ".claude/carryover/installs.json"));
    outcomes.add(installed ? "installed" : "untouched");
    if (!installed) {
      expect(contents(home), `SIGINT after ${delayMs} ms`).toEqual(before);
      continue;
    }
    // Complete: every hook and the skill installed, every executable as the release ships it, no lock left.
    const list = spawnSync(process.execPath, [CLI, "list", "--json"], { cwd: root, env, encoding: "utf8" });
    const rows = JSON.parse(list.stdout).hooks as Array<{ name: string; installed: string[] }>;
    expect(
      rows.filter((row) => row.installed.join() !== "user").map((row) => row.name),
      `after ${delayMs} ms`,
    ).toEqual([]);
    const record = JSON.parse(readFileSync(join(home, ".claude/carryover/installs.json"), "utf8"));
    for (const [name, { sha256 }] of Object.entries<{ sha256: string }>(record.executables))
      expect(sha256Of(readFileSync(join(home, ".claude/carryover/bin", name))), name).toBe(sha256);
    expect(readdirSync(join(home, ".claude")).filter((name) => name.endsWith(".lock"))).toEqual([]);
  }
  expect([...outcomes].sort()).toEqual(["installed", "untouched"]);
});
