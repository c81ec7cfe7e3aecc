import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compactStatePath, defaultStateDir, mechanicalSnapshotPath } from "./paths.ts";
import { openSession } from "./session.ts";

const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-paths-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("session path names", () => {
  const env = { HOME: "/home/user", TMPDIR: "/var/tmp" };

  it("puts a session's files under ~/.claude/carryover/sessions", () => {
    expect(openSession(env, SESSION).dir).toBe(`/home/user/.claude/carryover/sessions/${SESSION}`);
    expect(mechanicalSnapshotPath(openSession(env, SESSION))).toBe(
      `/home/user/.claude/carryover/sessions/${SESSION}/snapshot.md`,
    );
  });

  it("puts compact-prep state files in Claude Code's per-user temp dir unless configured", () => {
    const uid = process.getuid?.() ?? 0;
    expect(defaultStateDir(env)).toBe(`/var/tmp/claude-${uid}/carryover/compact-state`);
    expect(compactStatePath(env, SESSION)).toBe(`/var/tmp/claude-${uid}/carryover/compact-state/${SESSION}.md`);
    expect(compactStatePath(env, SESSION, "/srv/state")).toBe(`/srv/state/${SESSION}.md`);
  });

  it("finds the same dir from a hook, from Bash and from Bash in Claude Code's sandbox", () => {
    const uid = process.getuid?.() ?? 0;
    const dir = `/tmp/claude-${uid}/carryover/compact-state`;
    expect(defaultStateDir({ HOME: "/h" })).toBe(dir);
    expect(defaultStateDir({ HOME: "/h", TMPDIR: "/tmp/" })).toBe(dir);
    // What Claude Code 2.1.332 sets for a sandboxed Bash command.
    const sandboxed = {
      HOME: "/h",
      SANDBOX_RUNTIME: "1",
      TMPDIR: `/tmp/claude-${uid}`,
      CLAUDE_CODE_TMPDIR: `/tmp/claude-${uid}`,
    };
    expect(defaultStateDir(sandboxed)).toBe(dir);
    // CLAUDE_CODE_TMPDIR moves Claude Code's temp dir, so the state follows it, in and out of the sandbox.
    expect(defaultStateDir({ HOME: "/h", TMPDIR: "/tmp", CLAUDE_CODE_TMPDIR: "/srv/t" })).toBe(
      `/srv/t/claude-${uid}/carryover/compact-state`,
    );
    const moved = {
      HOME: "/h",
      SANDBOX_RUNTIME: "1",
      TMPDIR: `/srv/t/claude-${uid}`,
      CLAUDE_CODE_TMPDIR: `/srv/t/claude-${uid}`,
    };
    expect(defaultStateDir(moved)).toBe(`/srv/t/claude-${uid}/carryover/compact-state`);
  });

  it("refuses an unsafe session id in every path built from one", () => {
    const badSession = expect.objectContaining({ code: "BAD_SESSION_ID" });
    for (const id of ["../x", "/abs", "a/b", "", "x\0y"]) {
      expect(() => openSession(env, id).dir).toThrow(badSession);
      expect(() => compactStatePath(env, id)).toThrow(badSession);
    }
  });
});

describe("openSession", () => {
  const unsafe = expect.objectContaining({ code: "UNSAFE_PATH" });

  it("creates the session dir 0700, and every dir above it that carryover owns", () => {
    const dir = openSession({ HOME: home }, SESSION).ensureDir();
    expect(dir).toBe(join(home, ".claude/carryover/sessions", SESSION));
    for (const path of [dir, join(home, ".claude/carryover/sessions"), join(home, ".claude/carryover")]) {
      expect(statSync(path).mode & 0o777).toBe(0o700);
    }
  });

  it("refuses a symlinked sessions dir and writes nothing through it", () => {
    const elsewhere = join(home, "elsewhere");
    mkdirSync(elsewhere);
    mkdirSync(join(home, ".claude/carryover"), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, join(home, ".claude/carryover/sessions"));
    expect(() => openSession({ HOME: home }, SESSION).ensureDir()).toThrow(unsafe);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("refuses a symlinked session dir", () => {
    const elsewhere = join(home, "elsewhere");
    mkdirSync(elsewhere);
    mkdirSync(join(home, ".claude/carryover/sessions"), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, join(home, ".claude/carryover/sessions", SESSION));
    expect(() => openSession({ HOME: home }, SESSION).ensureDir()).toThrow(unsafe);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("refuses a sessions dir with mode 0777", () => {
    mkdirSync(join(home, ".claude/carryover/sessions"), { recursive: true });
    chmodSync(join(home, ".claude/carryover/sessions"), 0o777);
    expect(() => openSession({ HOME: home }, SESSION).ensureDir()).toThrow(unsafe);
    expect(readdirSync(join(home, ".claude/carryover/sessions"))).toEqual([]);
  });

  it("refuses an unsafe session id before creating anything", () => {
    expect(() => openSession({ HOME: home }, "../../escape").ensureDir()).toThrow(
      expect.objectContaining({ code: "BAD_SESSION_ID" }),
    );
    expect(readdirSync(home)).toEqual([]);
  });

  it("refuses a file at the carryover dir", () => {
    mkdirSync(join(home, ".claude"));
    writeFileSync(join(home, ".claude/carryover"), "");
    expect(() => openSession({ HOME: home }, SESSION).ensureDir()).toThrow(unsafe);
  });
});
