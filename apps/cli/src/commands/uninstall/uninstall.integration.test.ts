import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendLedger, defaultStateDir, openSession, writeMarker } from "@carryover/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKit, type Kit } from "../../../test/kit.ts";

const USER_SETTINGS = `{
  "env": {"FOO": "1"},
  "statusLine": {
    "type": "command",
    "command": "bash ~/.claude/statusline.sh"
  },
  "hooks": {
    "PostCompact": [
      {"hooks": [{"type": "command", "command": "echo theirs"}]}
    ]
  }
}
`;

let kit: Kit;
beforeEach(() => {
  kit = createKit();
  kit.writeSettings(USER_SETTINGS);
});
afterEach(() => kit.cleanup());

const carryoverDir = () => join(kit.home, ".claude/carryover");

describe("uninstall", () => {
  it("--all after --all: settings.json byte-identical, status line back, executables and skill gone", async () => {
    expect((await kit.run("install", "--all")).code).toBe(0);
    expect(readFileSync(kit.settingsPath, "utf8")).not.toBe(USER_SETTINGS);
    const result = await kit.run("uninstall", "--all");
    expect(result.code).toBe(0);
    expect(result.out).toContain("~/.claude/settings.json: restored to its bytes before carryover");
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(USER_SETTINGS);
    const removed = result.out.split("\n").filter((line) => line.includes(" removed "));
    expect(removed).toContain("✔ removed ~/.claude/skills/compact-prep/SKILL.md");
    expect(removed).toEqual([...new Set(removed)]);
    expect(existsSync(join(carryoverDir(), "bin"))).toBe(false);
    expect(existsSync(join(carryoverDir(), "config.json"))).toBe(false);
    expect(existsSync(join(carryoverDir(), "installs.json"))).toBe(false);
    expect(existsSync(join(kit.home, ".claude/skills/compact-prep"))).toBe(false);
  });

  it("takes the V8 code cache an earlier status line left beside its executable, not other files there", async () => {
    await kit.run("install", "statusline", "post-compact");
    const cache = join(carryoverDir(), "cache");
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, "carryover-statusline-0123456789abcdef-v20.20.2-x64.v8"), "cache");
    writeFileSync(join(cache, "someone-elses.v8"), "theirs");
    const result = await kit.run("uninstall", "statusline");
    expect(result.out).toContain(
      "removed ~/.claude/carryover/cache/carryover-statusline-0123456789abcdef-v20.20.2-x64.v8",
    );
    expect(readdirSync(cache)).toEqual(["someone-elses.v8"]);
    writeFileSync(join(cache, "carryover-post-compact-0123456789abcdef-v22.1.0-x64.v8"), "cache");
    rmSync(join(cache, "someone-elses.v8"));
    await kit.run("uninstall", "--all");
    expect(existsSync(cache)).toBe(false);
  });

  it("removes the dirs an install made once they are empty; a dir holding the user's files stays", async () => {
    const fresh = join(kit.root, "fresh-project");
    mkdirSync(fresh);
    await kit.run("install", "--all", "--scope", "local", "--project", fresh);
    expect(readdirSync(join(fresh, ".claude")).sort()).toEqual(["carryover", "settings.local.json", "skills"]);
    await kit.run("uninstall", "--all", "--project", fresh);
    expect(readdirSync(fresh)).toEqual([]);
    await kit.run("install", "post-compact", "--scope", "project", "--project", fresh);
    writeFileSync(join(fresh, ".claude/CLAUDE.md"), "mine\n");
    await kit.run("uninstall", "--all", "--project", fresh);
    expect(readdirSync(join(fresh, ".claude"))).toEqual(["CLAUDE.md"]);
  });

  it("a settings file carryover created is removed again", async () => {
    rmSync(kit.settingsPath);
    await kit.run("install", "post-compact");
    expect(existsSync(kit.settingsPath)).toBe(true);
    await kit.run("uninstall", "post-compact");
    expect(existsSync(kit.settingsPath)).toBe(false);
  });

  it("keeps what the user changed after the install, and their layout, removing only carryover's entries", async () => {
    await kit.run("install", "post-compact", "statusline");
    const installed = readFileSync(kit.settingsPath, "utf8");
    writeFileSync(kit.settingsPath, installed.replace('"env": {"FOO": "1"}', '"env": {"FOO": "2"}'));
    await kit.run("uninstall", "--all");
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(USER_SETTINGS.replace('"FOO": "1"', '"FOO": "2"'));
  });

  it("one hook out, the others stay; an executable goes only when nothing uses it", async () => {
    await kit.run("install", "post-compact", "recovery");
    await kit.run("install", "recovery", "--scope", "project");
    await kit.run("uninstall", "recovery", "--scope", "user");
    const user = JSON.parse(readFileSync(kit.settingsPath, "utf8"));
    expect(Object.keys(user.hooks)).toEqual(["PostCompact"]);
    expect(user.hooks.PostCompact).toHaveLength(2);
    expect(existsSync(join(carryoverDir(), "bin/carryover-recovery"))).toBe(true);
    await kit.run("uninstall", "recovery");
    expect(existsSync(join(carryoverDir(), "bin/carryover-recovery"))).toBe(false);
    expect(existsSync(join(kit.project, ".claude/settings.json"))).toBe(false);
    expect(readdirSync(join(carryoverDir(), "bin")).sort()).toEqual(["carryover-post-compact", "node", "package.json"]);
    await kit.run("uninstall", "--all");
    expect(existsSync(join(carryoverDir(), "bin"))).toBe(false);
  });

  it("removes carryover entries nothing remembers (lost record) with --all, and nothing else", async () => {
    await kit.run("install", "post-compact");
    const { rmSync } = await import("node:fs");
    rmSync(join(carryoverDir(), "installs.json"));
    await kit.run("uninstall", "--all");
    expect(JSON.parse(readFileSync(kit.settingsPath, "utf8"))).toEqual(JSON.parse(USER_SETTINGS));
  });

  it("removes carryover's entries in every form, old and new; node handlers of other files stay", async () => {
    const ours = (name: string) => join(carryoverDir(), "bin", name);
    const theirs = [
      { type: "command", command: "node", args: ["/opt/guard.js"], timeout: 5 },
      { type: "command", command: "node /opt/guard.js" },
      { type: "command", command: "node", args: ["--no-warnings", ours("carryover-pin")] },
    ];
    const value = {
      statusLine: { type: "command", command: "'$HOME/.claude/carryover/bin/carryover-statusline'", padding: 1 },
      hooks: {
        PostCompact: [
          { hooks: [theirs[0], { type: "command", command: ours("carryover-post-compact"), args: [], timeout: 10 }] },
        ],
        SessionStart: [
          {
            matcher: "compact",
            hooks: [{ type: "command", command: "node", args: [ours("carryover-recovery")], timeout: 30 }],
          },
        ],
        UserPromptSubmit: [
          { hooks: [theirs[1], { type: "command", command: "node ~/.claude/carryover/bin/carryover-pin" }] },
          {
            hooks: [
              { type: "command", command: "/usr/local/bin/node", args: [ours("carryover-recovery")], timeout: 30 },
            ],
          },
          { hooks: [theirs[2]] },
        ],
      },
    };
    kit.writeSettings(JSON.stringify(value, null, 2));
    const listed = JSON.parse((await kit.run("list", "--json")).out);
    expect(
      listed.hooks
        .filter((hook: { installed: unknown[] }) => hook.installed.length > 0)
        .map((hook: { name: string }) => hook.name),
    ).toEqual(["pin", "post-compact", "recovery", "statusline"]);
    expect((await kit.run("uninstall", "--all")).code).toBe(0);
    expect(JSON.parse(readFileSync(kit.settingsPath, "utf8"))).toEqual({
      hooks: {
        PostCompact: [{ hooks: [theirs[0]] }],
        UserPromptSubmit: [{ hooks: [theirs[1]] }, { hooks: [theirs[2]] }],
      },
    });
  });

  it("an install killed after copying: uninstall --all removes the executables and skill no record knows", async () => {
    // What a kill or a power cut between the copies and the settings leaves: the files, no entry, no record (the
    // record and settings.json are written last).
    await kit.run("install", "--all");
    rmSync(join(carryoverDir(), "installs.json"));
    writeFileSync(kit.settingsPath, USER_SETTINGS);
    const skill = join(kit.home, ".claude/skills/compact-prep");
    writeFileSync(join(skill, "notes.md"), "mine\n");
    const result = await kit.run("uninstall", "--all");
    expect(result).toMatchObject({ code: 0, err: "" });
    expect(result.out).toContain("✔ removed ~/.claude/carryover/bin/carryover-recovery\n");
    expect(result.out).toContain("✔ removed ~/.claude/skills/compact-prep/SKILL.md\n");
    expect(existsSync(join(carryoverDir(), "bin"))).toBe(false);
    expect(readdirSync(skill)).toEqual(["notes.md"]);
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(USER_SETTINGS);
    expect((await kit.run("uninstall", "--all")).out).toBe("nothing of carryover's to remove\n");
  });

  it("a damaged install record: one line saying what to do; uninstall --all without it still cleans up", async () => {
    await kit.run("install", "post-compact");
    writeFileSync(
      join(carryoverDir(), "installs.json"),
      '{"version": 1, "files": {}, "executables": {"carryover-post-compact": 7}, "skills": {}}',
    );
    const damaged = await kit.run("install", "recovery");
    expect(damaged).toMatchObject({ code: 1, out: "" });
    expect(damaged.err).toBe(
      `carryover: ${join(carryoverDir(), "installs.json")}: ` +
        "not what carryover writes (executables.carryover-post-compact); " +
        "move it away and run `carryover uninstall --all`, which finds carryover's entries without it\n",
    );
    rmSync(join(carryoverDir(), "installs.json"));
    expect((await kit.run("uninstall", "--all")).code).toBe(0);
    expect(JSON.parse(readFileSync(kit.settingsPath, "utf8"))).toEqual(JSON.parse(USER_SETTINGS));
    expect(existsSync(join(carryoverDir(), "bin"))).toBe(false);
  });

  it("--purge also removes carryover's data and its sessions' state files, and says what stays", async () => {
    const env = { HOME: kit.home, TMPDIR: join(kit.root, "tmp") };
    const session = "292a2a51-de5b-4500-91e5-548294a01232";
    await kit.run("install", "--all");
    await kit.run("config", "pin", "everyTurns", "3");
    await kit.run("config", "recovery", "maxChars", "3000", "--scope", "project");
    writeMarker(openSession(env, session), "level-60", { level: 60 }, Date.now());
    appendLedger(openSession(env, session), { atMs: Date.now(), trigger: "auto", summary: "S" }, 50);
    mkdirSync(join(carryoverDir(), "log"), { recursive: true });
    writeFileSync(join(carryoverDir(), "log/carryover.log"), "a line\n");
    // The status line's compile cache as Node lays it out: dirs 755, entries 600.
    const cacheEntries = join(carryoverDir(), "cache/node-compile/v26.12.1-x64-310b2ce3-0");
    mkdirSync(cacheEntries, { recursive: true, mode: 0o755 });
    writeFileSync(join(cacheEntries, "d0025023"), Buffer.alloc(512, 1), { mode: 0o600 });
    const stateDir = defaultStateDir({ TMPDIR: join(kit.root, "tmp") });
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, `${session}.md`), "# state\n");
    writeFileSync(join(stateDir, `${session}.md.meta`), '{"compactions":1}\n');
    writeFileSync(join(stateDir, `${session}.md.bak`), "# the state before init --force\n");
    // Another user's file in a shared state dir, and one carryover knows no session of: both stay.
    const theirs = "00000000-0000-4000-8000-00000000abcd";
    writeFileSync(join(stateDir, `${theirs}.md`), "theirs\n");
    chownSync(join(stateDir, `${theirs}.md`), 4242, 4242);
    const result = await kit.run("uninstall", "--purge");
    expect(result).toMatchObject({ code: 0, err: "" });
    expect(result.out).toMatch(/✔ removed carryover's data: \d+ files in ~\/\.claude\/carryover\n/);
    expect(result.out).toContain(`✔ removed carryover's data: 3 files in ${stateDir}\n`);
    expect(result.out).toContain("kept in your projects: pre-compact's CHANGES_SESSION.md changes logs");
    expect(existsSync(carryoverDir())).toBe(false);
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(USER_SETTINGS);
    expect(readdirSync(stateDir)).toEqual([`${theirs}.md`]);
    expect(existsSync(join(kit.project, ".claude"))).toBe(false);
    expect((await kit.run("uninstall", "--purge", "pin")).code).toBe(2);
  });

  it("in a HOME where Claude Code never ran: install, then uninstall --purge leaves no ~/.claude behind", async () => {
    rmSync(join(kit.home, ".claude"), { recursive: true });
    expect((await kit.run("uninstall", "--all")).out).toBe("nothing of carryover's to remove\n");
    expect(readdirSync(kit.home)).toEqual([]);
    expect((await kit.run("install", "--recommended")).code).toBe(0);
    expect((await kit.run("uninstall", "--purge")).code).toBe(0);
    expect(readdirSync(kit.home)).toEqual([]);
  });

  it("--dry-run shows the diff back and writes nothing", async () => {
    await kit.run("install", "post-compact");
    const before = readFileSync(kit.settingsPath, "utf8");
    const result = await kit.run("uninstall", "--all", "--dry-run");
    expect(result.out).toContain(`-              "${join(carryoverDir(), "bin/carryover-post-compact")}",\n`);
    expect(result.out).toContain('+      {"hooks": [{"type": "command", "command": "echo theirs"}]}\n');
    expect(result.out).toContain("dry run: nothing was written");
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(before);
  });

  it("nothing installed: says so, changes nothing; unknown name: the closest", async () => {
    expect((await kit.run("uninstall", "--all")).out).toBe("nothing of carryover's to remove\n");
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(USER_SETTINGS);
    expect((await kit.run("uninstall", "recovry")).err).toBe(
      'carryover: unknown hook "recovry"; did you mean "recovery"?\n',
    );
  });
});
