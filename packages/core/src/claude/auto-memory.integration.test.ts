import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { autoMemoryDir, isAutoMemoryEnabled } from "./auto-memory.ts";

let home: string;
let project: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-automemory-"));
  project = join(home, "proj");
  mkdirSync(join(project, ".claude"), { recursive: true });
  mkdirSync(join(home, ".claude"), { recursive: true });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

it("is on unless CLAUDE_CODE_DISABLE_AUTO_MEMORY is set", () => {
  expect(isAutoMemoryEnabled({ HOME: home }, project)).toBe(true);
  expect(isAutoMemoryEnabled({ HOME: home, CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1" }, project)).toBe(false);
  expect(isAutoMemoryEnabled({ HOME: home, CLAUDE_CODE_DISABLE_AUTO_MEMORY: "0" }, project)).toBe(true);
});

it("follows autoMemoryEnabled in the settings, the most specific file winning", () => {
  writeFileSync(join(home, ".claude/settings.json"), JSON.stringify({ autoMemoryEnabled: false }));
  expect(isAutoMemoryEnabled({ HOME: home }, project)).toBe(false);
  writeFileSync(join(project, ".claude/settings.local.json"), JSON.stringify({ autoMemoryEnabled: true }));
  expect(isAutoMemoryEnabled({ HOME: home }, project)).toBe(true);
  writeFileSync(join(project, ".claude/settings.local.json"), "{not json");
  expect(isAutoMemoryEnabled({ HOME: home }, project)).toBe(false);
});

describe("autoMemoryDir", () => {
  const slugged = (dir: string) => join(home, ".claude/projects", dir.replace(/[^a-zA-Z0-9]/g, "-"), "memory");
  const settings = (path: string, value: unknown) =>
    writeFileSync(path, JSON.stringify({ autoMemoryDirectory: value }));

  it("is keyed by the git root, from any subdirectory, and by the cwd outside git", () => {
    const repo = join(home, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "src/deep"), { recursive: true });
    expect(autoMemoryDir({ HOME: home }, join(repo, "src/deep"))).toBe(slugged(repo));
    expect(autoMemoryDir({ HOME: home }, project)).toBe(slugged(project));
  });

  it("is the main repository's in a linked worktree, beside it or inside it (as Claude Code 2.1.332 loads it)", () => {
    const repo = join(home, "repo");
    mkdirSync(repo);
    const identity = ["-c", "user.name=t", "-c", "user.email=t@t"];
    const git = (...args: string[]) => execFileSync("git", [...identity, ...args], { cwd: repo, stdio: "pipe" });
    git("init", "-q");
    git("commit", "-q", "--allow-empty", "-m", "init");
    git("worktree", "add", "-q", join(home, "beside"));
    git("worktree", "add", "-q", join(repo, ".claude/worktrees/inside"));
    mkdirSync(join(home, "beside/sub"));
    expect(autoMemoryDir({ HOME: home }, join(home, "beside"))).toBe(slugged(repo));
    expect(autoMemoryDir({ HOME: home }, join(home, "beside/sub"))).toBe(slugged(repo));
    expect(autoMemoryDir({ HOME: home }, join(repo, ".claude/worktrees/inside"))).toBe(slugged(repo));
  });

  it("is a submodule's own: its .git file names a git dir with no commondir", () => {
    const sub = join(home, "super/lib");
    mkdirSync(join(home, "super/.git/modules/lib"), { recursive: true });
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, ".git"), "gitdir: ../.git/modules/lib\n");
    expect(autoMemoryDir({ HOME: home }, sub)).toBe(slugged(sub));
  });

  it("follows autoMemoryDirectory: ~/ is HOME, and the file nearest the project wins", () => {
    settings(join(home, ".claude/settings.json"), "~/notes/memory/");
    expect(autoMemoryDir({ HOME: home }, project)).toBe(join(home, "notes/memory"));
    // With CLAUDE_CONFIG_DIR, the user's settings.json is the one there.
    const moved = join(home, "cfg/projects", project.replace(/[^a-zA-Z0-9]/g, "-"), "memory");
    expect(autoMemoryDir({ HOME: home, CLAUDE_CONFIG_DIR: join(home, "cfg") }, project)).toBe(moved);
    settings(join(project, ".claude/settings.json"), join(home, "project-memory"));
    expect(autoMemoryDir({ HOME: home }, project)).toBe(join(home, "project-memory"));
    settings(join(project, ".claude/settings.local.json"), join(home, "local-memory"));
    expect(autoMemoryDir({ HOME: home }, project)).toBe(join(home, "local-memory"));
  });

  it("reads it from CLAUDE_CONFIG_DIR's settings, where ~/ is still HOME", () => {
    mkdirSync(join(home, "cfg"));
    settings(join(home, "cfg/settings.json"), "~/notes");
    expect(autoMemoryDir({ HOME: home, CLAUDE_CONFIG_DIR: join(home, "cfg") }, project)).toBe(join(home, "notes"));
  });

  it("takes an invalid value as the default, not a farther file's value", () => {
    settings(join(home, ".claude/settings.json"), "~/fine");
    for (const bad of ["relative/dir", "~", "~/..", "~/../x", "/a", 42, "/x\u0000y"]) {
      settings(join(project, ".claude/settings.json"), bad);
      expect(autoMemoryDir({ HOME: home }, project), JSON.stringify(bad)).toBe(slugged(project));
    }
  });
});
