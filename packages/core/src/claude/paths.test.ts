import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  binDir,
  carryoverRoot,
  claudeDir,
  ensureCarryoverDir,
  logPath,
  plansDir,
  projectConfigPath,
  projectsDir,
  tasksDir,
  transcriptPath,
  userConfigPath,
} from "./paths.ts";

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

describe("ensureCarryoverDir", () => {
  const env = () => ({ HOME: home });
  const stowed = (mode: number) => {
    const target = join(home, "dotfiles/claude/.claude/carryover");
    mkdirSync(target, { recursive: true });
    chmodSync(target, mode);
    mkdirSync(join(home, ".claude"), { recursive: true });
    symlinkSync("../dotfiles/claude/.claude/carryover", join(home, ".claude/carryover"));
    return target;
  };

  it("makes carryover's dirs 0700 under ~/.claude", () => {
    expect(ensureCarryoverDir(env(), "sessions", SESSION)).toBe(join(home, ".claude/carryover/sessions", SESSION));
    expect(statSync(join(home, ".claude/carryover")).mode & 0o777).toBe(0o700);
  });

  it("follows a stowed root that is the user's and private, and makes the dirs in its target", () => {
    const target = stowed(0o700);
    expect(ensureCarryoverDir(env(), "log")).toBe(join(home, ".claude/carryover/log"));
    expect(statSync(join(target, "log")).isDirectory()).toBe(true);
  });

  it("refuses a root linked to a dir others can write, or to nothing, naming the link and its target", () => {
    const target = stowed(0o777);
    expect(() => ensureCarryoverDir(env(), "log")).toThrow(
      `refusing ${join(home, ".claude/carryover")}: ` +
        `it is a symlink to ${target}, which is writable by others (mode 777)`,
    );
    expect(existsSync(join(target, "log"))).toBe(false);
    rmSync(target, { recursive: true });
    expect(() => ensureCarryoverDir(env(), "log")).toThrow(
      /it is a symlink to \.\.\/dotfiles\/claude\/\.claude\/carryover, which does not exist/,
    );
  });

  it("still refuses a symlink below the root", () => {
    mkdirSync(join(home, ".claude/carryover"), { recursive: true, mode: 0o700 });
    mkdirSync(join(home, "elsewhere"));
    symlinkSync(join(home, "elsewhere"), join(home, ".claude/carryover/sessions"));
    expect(() => ensureCarryoverDir(env(), "sessions", SESSION)).toThrow(/sessions: it is a symlink/);
  });
});
