import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Layer } from "./layers.ts";
import { carryoverPlugins } from "./plugins.ts";

// Plugin dirs as Claude Code 2.1.332 leaves them: what `carryover marketplace` writes, or a hook's npm package.
let claudeDir: string;
const plugins: Record<string, Array<{ scope: string; installPath: string }>> = {};

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function plugin(name: string, files: Record<string, string>): void {
  const installPath = join(claudeDir, "plugins/cache/carryover", name);
  for (const [file, text] of Object.entries(files)) write(join(installPath, file), text);
  plugins[`${name}@carryover`] = [{ scope: "user", installPath }];
}

const npmPackage = (carryover: object) => JSON.stringify({ name: "@carryover/x", carryover });

function found(): string[] {
  write(join(claudeDir, "plugins/installed_plugins.json"), JSON.stringify({ version: 2, plugins }));
  const enabledPlugins = Object.fromEntries(Object.keys(plugins).map((key) => [key, true]));
  const layers = [{ doc: { value: { enabledPlugins } } } as unknown as Layer];
  const names = ["recovery", "statusline", "compact-prep", "pin"];
  return carryoverPlugins({ CLAUDE_CONFIG_DIR: claudeDir }, layers, names, "/project").map(({ name }) => name);
}

beforeEach(() => {
  claudeDir = mkdtempSync(join(tmpdir(), "carryover-plugins-"));
  for (const key of Object.keys(plugins)) delete plugins[key];
});
afterEach(() => rmSync(claudeDir, { recursive: true, force: true }));

it("a hook or the skill as a plugin of the directory marketplace counts", () => {
  plugin("recovery", { "bin/carryover-recovery": "", "hooks/hooks.json": "{}" });
  plugin("compact-prep", { "skills/compact-prep/SKILL.md": "" });
  expect(found().sort()).toEqual(["compact-prep", "recovery"]);
});

it("a hook's or the skill's npm package as a plugin counts", () => {
  plugin("recovery", { "package.json": npmPackage({ hook: "recovery", registrations: [{ event: "SessionStart" }] }) });
  plugin("compact-prep", { "package.json": npmPackage({ skill: "compact-prep" }) });
  expect(found().sort()).toEqual(["compact-prep", "recovery"]);
});

it("the statusline plugin runs nothing, in either marketplace: the status line installed beside it runs once", () => {
  plugin("statusline", { "bin/carryover-statusline": "" });
  expect(found()).toEqual([]);
  plugin("statusline", { "package.json": npmPackage({ hook: "statusline", statusLine: true, registrations: [] }) });
  expect(found()).toEqual([]);
});

it("a plugin of that name that is not carryover's does not count", () => {
  plugin("pin", { "package.json": JSON.stringify({ name: "someone-elses-pin" }), "hooks/hooks.json": "{}" });
  expect(found()).toEqual([]);
});
