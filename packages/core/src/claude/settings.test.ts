import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeSettingsPaths, readAutoCompactSettings } from "./settings.ts";

let home: string;
let project: string;

function write(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-claude-settings-"));
  project = join(home, "proj");
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("claudeSettingsPaths", () => {
  it("lists user, project and local settings, in the order Claude Code layers them", () => {
    expect(claudeSettingsPaths({ HOME: "/h" }, "/p")).toEqual([
      "/h/.claude/settings.json",
      "/p/.claude/settings.json",
      "/p/.claude/settings.local.json",
    ]);
    expect(claudeSettingsPaths({ HOME: "/h", CLAUDE_CONFIG_DIR: "/c" }, undefined)).toEqual(["/c/settings.json"]);
  });
});

describe("readAutoCompactSettings", () => {
  it("is empty when no settings file exists", () => {
    expect(readAutoCompactSettings({ HOME: home }, project)).toEqual({ autoCompactWindow: undefined });
  });

  it("takes autoCompactWindow from the last layer that sets it", () => {
    write(join(home, ".claude/settings.json"), { autoCompactWindow: 300_000, model: "x" });
    expect(readAutoCompactSettings({ HOME: home }, project).autoCompactWindow).toBe(300_000);
    write(join(project, ".claude/settings.json"), { autoCompactWindow: 200_000 });
    expect(readAutoCompactSettings({ HOME: home }, project).autoCompactWindow).toBe(200_000);
    write(join(project, ".claude/settings.local.json"), { autoCompactWindow: 150_000 });
    expect(readAutoCompactSettings({ HOME: home }, project).autoCompactWindow).toBe(150_000);
    expect(readAutoCompactSettings({ HOME: home }, undefined).autoCompactWindow).toBe(300_000);
  });

  it("skips malformed files and values that are not positive numbers", () => {
    write(join(home, ".claude/settings.json"), { autoCompactWindow: 300_000 });
    write(join(project, ".claude/settings.json"), "{ not json");
    write(join(project, ".claude/settings.local.json"), { autoCompactWindow: "200000" });
    expect(readAutoCompactSettings({ HOME: home }, project).autoCompactWindow).toBe(300_000);
    write(join(project, ".claude/settings.local.json"), { autoCompactWindow: -1 });
    expect(readAutoCompactSettings({ HOME: home }, project).autoCompactWindow).toBe(300_000);
    write(join(project, ".claude/settings.local.json"), "null");
    expect(readAutoCompactSettings({ HOME: home }, project).autoCompactWindow).toBe(300_000);
  });

  it("reads a file that starts with a UTF-8 BOM, as Claude Code does", () => {
    write(join(home, ".claude/settings.json"), `\uFEFF${JSON.stringify({ autoCompactWindow: 200_000 })}`);
    expect(readAutoCompactSettings({ HOME: home }, project).autoCompactWindow).toBe(200_000);
  });

  it("reads the user settings from CLAUDE_CONFIG_DIR when set", () => {
    write(join(home, "alt/settings.json"), { autoCompactWindow: 120_000 });
    expect(
      readAutoCompactSettings({ HOME: home, CLAUDE_CONFIG_DIR: join(home, "alt") }, undefined).autoCompactWindow,
    ).toBe(120_000);
  });
});
