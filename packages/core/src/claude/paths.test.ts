import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { autoMemoryDir, binDir, carryoverRoot, claudeDir, logPath, plansDir, projectConfigPath, projectsDir, tasksDir, transcriptPath, userConfigPath } from "./paths.ts";

const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-paths-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("path names", () => {
  const env = { HOME: "/home/user", TMPDIR: "/var/tmp" };

  it("puts carryover's files under ~/.claude/carryover", () => {
    expect(claudeDir(env)).toBe("/home/user/.claude");
    expect(carryoverRoot(env)).toBe("/home/user/.claude/carryover");
    expect(userConfigPath(env)).toBe("/home/user/.claude/carryover/config.json");
    expect(logPath(env)).toBe("/home/user/.claude/carryover/log/carryover.log");
    expect(binDir(env)).toBe("/home/user/.claude/carryover/bin");
    expect(projectConfigPath("/home/user/proj")).toBe("/home/user/proj/.claude/carryover/config.json");
  });

  it("follows CLAUDE_CONFIG_DIR, resolved to an absolute path", () => {
    expect(claudeDir({ HOME: "/home/user", CLAUDE_CONFIG_DIR: "/opt/claude" })).toBe("/opt/claude");
    expect(claudeDir({ HOME: "/home/user", CLAUDE_CONFIG_DIR: "rel" })).toBe(join(process.cwd(), "rel"));
    expect(logPath({ CLAUDE_CONFIG_DIR: "/opt/claude" })).toBe("/opt/claude/carryover/log/carryover.log");
  });

  it("names Claude Code's own files as it does", () => {
    expect(projectsDir(env)).toBe("/home/user/.claude/projects");
    expect(tasksDir(env, SESSION)).toBe(`/home/user/.claude/tasks/${SESSION}`);
    expect(plansDir(env)).toBe("/home/user/.claude/plans");
    // The captured SessionStart payload's transcript_path, HOME=/home/user, cwd /home/user/proj.
    expect(transcriptPath(env, "/home/user/proj", SESSION)).toBe(
      `/home/user/.claude/projects/-home-user-proj/${SESSION}.jsonl`,
    );
  });

  it("refuses an unsafe session id in every path built from one", () => {
    const badSession = expect.objectContaining({ code: "BAD_SESSION_ID" });
    for (const id of ["../x", "/abs", "a/b", "", "x\0y"]) {
      expect(() => transcriptPath(env, "/p", id)).toThrow(badSession);
      expect(() => tasksDir(env, id)).toThrow(badSession);
    }
  });
});

describe("autoMemoryDir", () => {
  it("is keyed by the git root, from any subdirectory", () => {
    const repo = join(home, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "src/deep"), { recursive: true });
    const expected = join(home, ".claude/projects", repo.replace(/[^a-zA-Z0-9]/g, "-"), "memory");
    expect(autoMemoryDir({ HOME: home }, join(repo, "src/deep"))).toBe(expected);
  });

  it("is keyed by the cwd outside git", () => {
    const dir = join(home, "plain");
    mkdirSync(dir);
    expect(autoMemoryDir({ HOME: home }, dir)).toBe(join(home, ".claude/projects", dir.replace(/[^a-zA-Z0-9]/g, "-"), "memory"));
  });
});
