import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { carryoverPackages } from "../scripts/assemble-release.mjs";
import { loadRelease, verifiedFile } from "../src/release/manifest.ts";
import { CLI } from "./cli-run.ts";

const REPO = join(import.meta.dirname, "../../..");
let root: string;
let release: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-release-"));
  release = join(root, "release");
  execFileSync(process.execPath, [join(REPO, "scripts/release.mjs"), "dir", release], { stdio: "pipe" });
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function carryoverAs(home: string, cli: string, args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH, HOME: home },
    cwd: root,
    encoding: "utf8",
  });
}

it("the release holds every package with a carryover field, each file as the manifest hashes it", () => {
  const manifest = loadRelease(release);
  const names = carryoverPackages(REPO).map(
    (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).carryover,
  );
  expect(manifest.entries.map((entry) => entry.name).sort()).toEqual(
    names.map((field: { hook?: string; skill?: string }) => field.hook ?? field.skill).sort(),
  );
  for (const entry of manifest.entries) {
    for (const executable of entry.executables)
      expect(() => verifiedFile(manifest, executable.file, executable.sha256)).not.toThrow();
    for (const skill of entry.skills)
      for (const file of skill.files)
        expect(() => verifiedFile(manifest, join(skill.dir, file.path), file.sha256)).not.toThrow();
  }
  const marketplace = JSON.parse(readFileSync(join(release, "marketplace/.claude-plugin/marketplace.json"), "utf8"));
  expect(marketplace.plugins.map((plugin: { name: string }) => plugin.name)).toEqual(
    manifest.entries.map((entry) => entry.name),
  );
});

it("the release's own carryover.cjs installs from its dir; the built CLI installs from it with --from", () => {
  const home = join(root, "home");
  mkdirSync(home);
  const own = carryoverAs(home, join(release, "carryover.cjs"), ["install", "post-compact"]);
  expect(own.status, own.stderr).toBe(0);
  const fromDir = carryoverAs(home, CLI, ["install", "recovery", "--from", release]);
  expect(fromDir.status, fromDir.stderr).toBe(0);
  const settings = JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8"));
  expect(Object.keys(settings.hooks).sort()).toEqual(["PostCompact", "SessionStart", "UserPromptSubmit"]);
  const doctor = carryoverAs(home, CLI, ["doctor", "--from", release, "--json"]);
  expect(JSON.parse(doctor.stdout).ok).toBe(true);
});
