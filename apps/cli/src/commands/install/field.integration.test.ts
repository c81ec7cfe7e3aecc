// install and uninstall on files as users have them: a full disk, dotfiles links, hard links, read-only
// files, long paths, an editor saving settings.json while install runs. Each one set up for real.
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statfsSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contents, createKit, type Kit } from "../../../test/kit.ts";

const USER_SETTINGS = `{
  "model": "opus",
  "permissions": {"allow": ["Bash(ls:*)"]},
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}
}
`;

let kit: Kit;
beforeEach(() => {
  kit = createKit();
});
afterEach(() => kit.cleanup());

const claudeDir = () => join(kit.home, ".claude");

const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = join(process.env.TMPDIR ?? "/tmp", `carryover-mount-probe-${process.pid}`);
  mkdirSync(probe, { recursive: true });
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]).status === 0;
  if (mounted) spawnSync("umount", [probe]);
  rmSync(probe, { recursive: true, force: true });
  return mounted;
})();

describe("all or nothing", () => {
  // ~/.claude on a 1 MiB tmpfs, filled so that only `pages` 4 KiB pages are left: every write of the install
  // (guard, executables, skill files, backup, settings, install record) can be the one that finds the disk full.
  it.skipIf(!canMount)(
    "a full disk at any point of install --all leaves the files as they were, or a complete install",
    async () => {
      mkdirSync(claudeDir(), { recursive: true });
      expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=755", "tmpfs", claudeDir()]).status).toBe(0);
      try {
        const outcomes: string[] = [];
        for (let pages = 0; pages <= 16; pages++) {
          for (const name of readdirSync(claudeDir()))
            rmSync(join(claudeDir(), name), { recursive: true, force: true });
          // Long enough that the install record, which keeps the file's original bytes, takes two pages: it is
          // then the write that finds the disk full after settings.json was replaced, which must be put back.
          kit.writeSettings(USER_SETTINGS.replace("{\n", `{\n  "x-notes": "${"n".repeat(2700)}",\n`));
          const free = () => Number(statfsSync(claudeDir()).bavail) * 4096;
          writeFileSync(join(claudeDir(), "filler"), Buffer.alloc(free() - pages * 4096));
          expect(free()).toBe(pages * 4096);
          const before = contents(claudeDir());
          const result = await kit.run("install", "--all");
          if (result.code === 0) {
            outcomes.push("installed");
            expect((await kit.run("doctor", "--json")).code, `doctor after the install with ${pages} pages free`).toBe(
              0,
            );
            continue;
          }
          const failed = /cannot (?:write \S*?([^/\s]+):|copy \S*?([^/\s]+) to )/.exec(result.err);
          outcomes.push(failed?.[1] ?? `a backup of ${failed?.[2]}`);
          expect(result.err).toMatch(/^carryover: cannot (?:\w+ \S+|copy \S+ to \S+): no space left on device; /);
          expect(result.err).toMatch(/; free some space and run it again( \(nothing was changed\))?\n$/);
          expect(contents(claudeDir()), `after the failure with ${pages} pages free`).toEqual(before);
          rmSync(join(claudeDir(), "filler"));
          expect((await kit.run("uninstall", "--all")).out).toBe("nothing of carryover's to remove\n");
        }
        // The disk fills at each write in turn, up to the install record, written after settings.json.
        expect(outcomes.slice(0, outcomes.indexOf("installed"))).toEqual([
          ".claude",
          "package.json",
          "carryover-pin",
          "carryover-post-compact",
          "carryover-recovery",
          "carryover-statusline",
          "SKILL.md",
          "carryover-state",
          "package.json",
          "a backup of settings.json",
          "settings.json",
          "installs.json",
        ]);
        expect(outcomes.at(-1)).toBe("installed");
      } finally {
        spawnSync("umount", [claudeDir()]);
      }
    },
  );
});

describe("dotfiles", () => {
  it("writes through a symlink whose target does not exist yet: the target is made, the link stays", async () => {
    const dotfiles = join(kit.root, "dotfiles");
    mkdirSync(dotfiles);
    symlinkSync("../../dotfiles/claude/settings.json", join(claudeDir(), "settings.json"));
    const result = await kit.run("install", "post-compact");
    expect(result).toMatchObject({ code: 0, err: "" });
    expect(readlinkSync(join(claudeDir(), "settings.json"))).toBe("../../dotfiles/claude/settings.json");
    expect(JSON.parse(readFileSync(join(dotfiles, "claude/settings.json"), "utf8")).hooks.PostCompact).toHaveLength(1);
    await kit.run("uninstall", "--all");
    expect(lstatSync(join(claudeDir(), "settings.json")).isSymbolicLink()).toBe(true);
    expect(existsSync(join(dotfiles, "claude/settings.json"))).toBe(false);
  });

  it("follows a chain of links to the file at its end", async () => {
    const real = join(kit.root, "dotfiles/settings.json");
    kit.writeSettings(USER_SETTINGS, real);
    symlinkSync(real, join(kit.root, "middle.json"));
    symlinkSync(join(kit.root, "middle.json"), join(claudeDir(), "settings.json"));
    await kit.run("install", "post-compact");
    expect(lstatSync(join(kit.root, "middle.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, "utf8"))).toMatchObject({
      model: "opus",
      hooks: { PostCompact: [expect.anything()] },
    });
  });

  it("keeps a hard-linked settings.json one file: both names see the install and the uninstall", async () => {
    const other = join(kit.root, "dotfiles/settings.json");
    kit.writeSettings(USER_SETTINGS, other);
    linkSync(other, kit.settingsPath);
    expect((await kit.run("install", "post-compact")).code).toBe(0);
    expect(statSync(kit.settingsPath).ino).toBe(statSync(other).ino);
    expect(JSON.parse(readFileSync(other, "utf8")).hooks.PostCompact).toHaveLength(1);
    await kit.run("uninstall", "--all");
    expect(statSync(kit.settingsPath).nlink).toBe(2);
    expect(readFileSync(other, "utf8")).toBe(USER_SETTINGS);
  });

  it("refuses a read-only settings.json, writing nothing, not even the executables", async () => {
    kit.writeSettings(USER_SETTINGS);
    chmodSync(kit.settingsPath, 0o444);
    const before = contents(claudeDir());
    const result = await kit.run("install", "--recommended");
    expect(result).toMatchObject({ code: 1, out: "" });
    expect(result.err).toBe(
      `carryover: ${kit.settingsPath} is read-only (mode 0444); carryover leaves it alone: ` +
        "make it writable (chmod u+w) and run it again (nothing was written)\n",
    );
    expect(contents(claudeDir())).toEqual(before);
  });
});

describe("backups", () => {
  it("a project path too long for a flat backup name installs; backups of one file are pruned to 5", async () => {
    // 6 levels of 60 characters: a backup name made of the whole path would pass NAME_MAX (255).
    const deep = join(kit.project, ...Array.from({ length: 6 }, (_, level) => `${level}`.repeat(60)));
    mkdirSync(join(deep, ".claude"), { recursive: true });
    const settings = join(deep, ".claude/settings.json");
    writeFileSync(settings, USER_SETTINGS);
    const first = await kit.run("install", "post-compact", "--scope", "project", "--project", deep);
    expect(first).toMatchObject({ code: 0, err: "" });
    expect(first.out).toContain("(the last 5 backups of each file are kept)");
    for (let round = 0; round < 4; round++) {
      await kit.run("uninstall", "--all", "--project", deep);
      writeFileSync(settings, USER_SETTINGS.replace("opus", `opus-${round}`));
      await kit.run("install", "post-compact", "--scope", "project", "--project", deep);
    }
    const backups = readdirSync(join(claudeDir(), "carryover/backups"));
    expect(backups.every((name) => name.length < 128)).toBe(true);
    const ofSettings = backups.filter((name) => name.includes("settings.json"));
    expect(ofSettings).toHaveLength(5);
    const newest = ofSettings
      .map((name) => join(claudeDir(), "carryover/backups", name))
      .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
    expect(readFileSync(newest.at(-1)!, "utf8")).toContain('"model": "opus-3"');
  });

  it("16 config commands leave the last 5 copies of config.json", async () => {
    for (let value = 50; value < 66; value++)
      expect((await kit.run("config", "recovery", "maxChars", `${value * 100}`)).code).toBe(0);
    expect(readdirSync(join(claudeDir(), "carryover/backups"))).toHaveLength(5);
  });
});

describe("an editor saving settings.json in place while install runs", () => {
  // One save as an editor writing in place does it: the file truncated, then (after a stall of argv[2] ms) its text
  // written in four slow chunks. "saving" is printed once the file is empty, so install reads it mid-save.
  const EDITOR = `
    const fs = require("node:fs");
    const path = process.argv[1];
    const stallMs = Number(process.argv[2] ?? 0);
    const text = fs.readFileSync(path, "utf8");
    const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    const fd = fs.openSync(path, "w");
    process.stdout.write("saving\\n");
    pause(stallMs);
    const size = Math.ceil(text.length / 4);
    for (let at = 0; at < text.length; at += size) { pause(15); fs.writeSync(fd, text.slice(at, at + size)); }
    fs.closeSync(fd);`;

  it("never costs the user's keys (10 rounds of install and uninstall, each during a save)", async () => {
    kit.writeSettings(USER_SETTINGS);
    for (let round = 0; round < 10; round++) {
      const editor = spawn(process.execPath, ["-e", EDITOR, kit.settingsPath], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = new Promise((resolve) => editor.once("exit", resolve));
      await new Promise((resolve) => editor.stdout.once("data", resolve));
      const install = round % 2 === 0;
      const result = await kit.run(...(install ? ["install", "post-compact"] : ["uninstall", "--all"]));
      await exited;
      expect(result.err, `round ${round}`).toBe("");
      const value = JSON.parse(readFileSync(kit.settingsPath, "utf8"));
      expect(value, `round ${round}`).toMatchObject({ model: "opus", permissions: { allow: ["Bash(ls:*)"] } });
      expect(value.hooks.PostCompact !== undefined, `round ${round}: carryover's entry`).toBe(install);
    }
  });

  it("waits out an editor that stalls over a second between emptying the file and writing it", async () => {
    kit.writeSettings(USER_SETTINGS);
    for (const command of [
      ["install", "post-compact"],
      ["uninstall", "--all"],
    ]) {
      const editor = spawn(process.execPath, ["-e", EDITOR, kit.settingsPath, "1200"], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = new Promise((resolve) => editor.once("exit", resolve));
      await new Promise((resolve) => editor.stdout.once("data", resolve));
      const result = await kit.run(...command);
      await exited;
      expect(result.err, command.join(" ")).toBe("");
      const value = JSON.parse(readFileSync(kit.settingsPath, "utf8"));
      expect(value, command.join(" ")).toMatchObject({ model: "opus", permissions: { allow: ["Bash(ls:*)"] } });
      expect(value.hooks?.PostCompact !== undefined, command.join(" ")).toBe(command[0] === "install");
    }
  });

  it("takes a settings.json left blank long ago as empty, and one left broken long ago as an error", async () => {
    const old = new Date(Date.now() - 60_000);
    writeFileSync(kit.settingsPath, "  \n");
    utimesSync(kit.settingsPath, old, old);
    expect(await kit.run("install", "post-compact")).toMatchObject({ code: 0, err: "" });
    expect(JSON.parse(readFileSync(kit.settingsPath, "utf8")).hooks.PostCompact).toBeDefined();
    writeFileSync(kit.settingsPath, '{"model": "opus",');
    utimesSync(kit.settingsPath, old, old);
    const broken = await kit.run("install", "pin");
    expect(broken.code).not.toBe(0);
    expect(broken.err).toMatch(/settings\.json.*fix the JSON there\n$/);
    expect(readFileSync(kit.settingsPath, "utf8")).toBe('{"model": "opus",');
  });
});
