import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKit, type Kit, writeFakeRelease } from "../../../test/kit.ts";

// A user's settings as people write them: 4-space indent, inline objects, a status line, other hooks.
const USER_SETTINGS = `{
    "model": "opus",
    "statusLine": {"type": "command", "command": "~/bin/my-status.sh", "padding": 1},
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
        "UserPromptSubmit": [{"matcher": "", "hooks": [{"type": "command", "command": "~/bin/log-prompt"}]}]
    },
    "permissions": {"allow": ["Bash(ls:*)"]}
}
`;

let kit: Kit;
beforeEach(() => {
  kit = createKit();
  kit.writeSettings(USER_SETTINGS);
});
afterEach(() => kit.cleanup());

const settings = () => JSON.parse(readFileSync(kit.settingsPath, "utf8"));
const bin = (name: string) => join(kit.home, ".claude/carryover/bin", name);
// The status line's command: Claude Code's sh sources the file, named in a variable (its prelude reads it).
const statusLineCommand = () => `carryover_statusline=${bin("carryover-statusline")}; . "$carryover_statusline"`;

describe("install", () => {
  it("copies executables, registers /bin/sh <file> <event> with timeouts, keeps every other key and hook", async () => {
    const result = await kit.run("install", "post-compact", "recovery");
    expect(result).toMatchObject({ code: 0, err: "" });
    const value = settings();
    expect(value.model).toBe("opus");
    expect(value.permissions).toEqual({ allow: ["Bash(ls:*)"] });
    expect(value.statusLine).toEqual({ type: "command", command: "~/bin/my-status.sh", padding: 1 });
    expect(value.hooks.Stop).toEqual([{ hooks: [{ type: "command", command: "notify-send done" }] }]);
    expect(value.hooks.PostCompact).toEqual([
      {
        hooks: [
          { type: "command", command: "/bin/sh", args: [bin("carryover-post-compact"), "PostCompact"], timeout: 10 },
        ],
      },
    ]);
    expect(value.hooks.SessionStart).toEqual([
      {
        matcher: "compact",
        hooks: [
          { type: "command", command: "/bin/sh", args: [bin("carryover-recovery"), "SessionStart"], timeout: 30 },
        ],
      },
    ]);
    expect(value.hooks.UserPromptSubmit).toEqual([
      { matcher: "", hooks: [{ type: "command", command: "~/bin/log-prompt" }] },
      {
        hooks: [
          { type: "command", command: "/bin/sh", args: [bin("carryover-recovery"), "UserPromptSubmit"], timeout: 30 },
        ],
      },
    ]);
    expect(readFileSync(bin("carryover-post-compact"), "utf8")).toBe("#!/bin/sh\necho post-compact 0.1.0\n");
    expect(statSync(bin("carryover-post-compact")).mode & 0o777).toBe(0o755);
    expect(readFileSync(bin("package.json"), "utf8")).toBe('{"type":"commonjs"}\n');
  });

  it("installs through a stowed ~/.claude/carryover that is the user's own, as the hooks go through it", async () => {
    const target = join(kit.home, "dotfiles/claude/.claude/carryover");
    mkdirSync(target, { recursive: true, mode: 0o700 });
    writeFileSync(join(target, "config.json"), '{"pin": {"everyTurns": 3}}\n');
    symlinkSync("../dotfiles/claude/.claude/carryover", join(kit.home, ".claude/carryover"));
    expect(await kit.run("install", "post-compact")).toMatchObject({ code: 0, err: "" });
    expect(existsSync(join(target, "bin", "carryover-post-compact"))).toBe(true);
    expect(lstatSync(join(kit.home, ".claude/carryover")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(target, "config.json"), "utf8")).toBe('{"pin": {"everyTurns": 3}}\n');
  });

  it("links the node on PATH beside the executables, where their prelude starts it; says which and why", async () => {
    const result = await kit.run("install", "post-compact");
    const node = join(kit.root, "node-bin/node");
    expect(readlinkSync(bin("node"))).toBe(node);
    expect(result.out).toContain(
      `hooks run with node v24.11.0: ${node}, the first node on your PATH, linked as ~/.claude/carryover/bin/node\n`,
    );
    expect(result.out).not.toContain("warning");
  });

  it("rewrites only what changed: the user's layout and inline objects stay as written", async () => {
    await kit.run("install", "post-compact");
    const text = readFileSync(kit.settingsPath, "utf8");
    expect(
      text.startsWith(
        '{\n    "model": "opus",\n' +
          '    "statusLine": {"type": "command", "command": "~/bin/my-status.sh", "padding": 1},\n',
      ),
    ).toBe(true);
    expect(text).toContain('        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],\n');
    expect(text).toContain('    "permissions": {"allow": ["Bash(ls:*)"]}\n}\n');
    expect(text).toContain(`        "PostCompact": [\n            {\n                "hooks": [\n`);
  });

  it("is idempotent: installing twice leaves the same bytes and duplicates nothing", async () => {
    await kit.run("install", "--recommended");
    const first = readFileSync(kit.settingsPath, "utf8");
    const again = await kit.run("install", "--recommended");
    expect(again.out).toContain("already installed: nothing changed");
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(first);
    expect(settings().hooks.PostCompact).toHaveLength(1);
  });

  it("rewrites an earlier version's entries (exec form with the bare path) to /bin/sh in place", async () => {
    await kit.run("install", "post-compact", "recovery", "statusline");
    const current = settings();
    // What earlier versions wrote: the executable as `command`, `args: []`; the status line as the bare path.
    for (const groups of Object.values(current.hooks) as Array<Array<{ hooks: Array<Record<string, any>> }>>) {
      for (const group of groups)
        group.hooks = group.hooks.map((handler) =>
          handler.command === "/bin/sh"
            ? { ...handler, command: handler.args[0], args: [], statusMessage: "mine" }
            : handler,
        );
    }
    current.statusLine.command = "~/.claude/carryover/bin/carryover-statusline";
    writeFileSync(kit.settingsPath, `${JSON.stringify(current, null, 4)}\n`);
    expect((await kit.run("install", "post-compact", "recovery", "statusline")).code).toBe(0);
    const value = settings();
    expect(value.hooks.Stop).toEqual([{ hooks: [{ type: "command", command: "notify-send done" }] }]);
    expect(value.hooks.PostCompact).toEqual([
      {
        hooks: [
          {
            type: "command",
            command: "/bin/sh",
            args: [bin("carryover-post-compact"), "PostCompact"],
            timeout: 10,
            statusMessage: "mine",
          },
        ],
      },
    ]);
    expect(value.hooks.SessionStart).toEqual([
      {
        matcher: "compact",
        hooks: [
          {
            type: "command",
            command: "/bin/sh",
            args: [bin("carryover-recovery"), "SessionStart"],
            timeout: 30,
            statusMessage: "mine",
          },
        ],
      },
    ]);
    expect(value.hooks.UserPromptSubmit).toEqual([
      { matcher: "", hooks: [{ type: "command", command: "~/bin/log-prompt" }] },
      {
        hooks: [
          {
            type: "command",
            command: "/bin/sh",
            args: [bin("carryover-recovery"), "UserPromptSubmit"],
            timeout: 30,
            statusMessage: "mine",
          },
        ],
      },
    ]);
    expect(value.statusLine).toEqual({ type: "command", command: statusLineCommand(), padding: 1 });
    const migrated = readFileSync(kit.settingsPath, "utf8");
    expect((await kit.run("install", "post-compact", "recovery", "statusline")).out).toContain(
      "already installed: nothing changed",
    );
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(migrated);
    expect((await kit.run("uninstall", "--all")).out).toContain(
      "~/.claude/settings.json: restored to its bytes before carryover",
    );
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(USER_SETTINGS);
  });

  it("chains an existing status line by default and remembers it in the statusline config", async () => {
    const result = await kit.run("install", "statusline");
    expect(result.out).toContain("chained your status line `~/bin/my-status.sh`");
    expect(settings().statusLine).toEqual({ type: "command", command: statusLineCommand(), padding: 1 });
    const config = JSON.parse(readFileSync(join(kit.home, ".claude/carryover/config.json"), "utf8"));
    expect(config).toEqual({ statusline: { chainCommand: "~/bin/my-status.sh" } });
  });

  it("--statusline replace displaces without chaining; skip leaves the slot alone", async () => {
    await kit.run("install", "statusline", "--statusline", "replace");
    expect(settings().statusLine.command).toBe(statusLineCommand());
    expect(existsSync(join(kit.home, ".claude/carryover/config.json"))).toBe(false);
    await kit.run("uninstall", "statusline");
    const skipped = await kit.run("install", "--recommended", "--statusline", "skip");
    expect(skipped.out).toContain("skipped statusline (--statusline skip)");
    expect(settings().statusLine).toEqual({ type: "command", command: "~/bin/my-status.sh", padding: 1 });
  });

  it("in project scope chains the user's status line, which the project's would otherwise hide", async () => {
    const result = await kit.run("install", "statusline", "--scope", "project");
    expect(result.code).toBe(0);
    const project = JSON.parse(readFileSync(join(kit.project, ".claude/settings.json"), "utf8"));
    expect(project).toEqual({ statusLine: { type: "command", command: statusLineCommand() } });
    expect(JSON.parse(readFileSync(join(kit.project, ".claude/carryover/config.json"), "utf8"))).toEqual({
      statusline: { chainCommand: "~/bin/my-status.sh" },
    });
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(USER_SETTINGS);
    expect(result.out).toContain("only in a folder you have trusted");
  });

  it("says when a higher scope's status line would hide the one it installs", async () => {
    kit.writeSettings(
      '{"statusLine": {"type": "command", "command": "echo local"}}',
      join(kit.project, ".claude/settings.local.json"),
    );
    const result = await kit.run("install", "statusline");
    expect(result.out).toContain(
      `the status line set in ${join(kit.project, ".claude/settings.local.json")} takes precedence here; ` +
        "`carryover install statusline --scope local` chains it there",
    );
  });

  it("--dry-run prints a unified diff and writes nothing", async () => {
    const result = await kit.run("install", "post-compact", "--dry-run");
    expect(result.code).toBe(0);
    expect(result.out).toContain(`--- a${kit.settingsPath}\n+++ b${kit.settingsPath}\n@@ -3,7 +3,22 @@`);
    expect(result.out).toContain(
      '-        "UserPromptSubmit": [{"matcher": "", "hooks": [{"type": "command", "command": "~/bin/log-prompt"}]}]\n',
    );
    expect(result.out).toContain(`+                        "command": "/bin/sh",\n`);
    expect(result.out).toContain(`+                            "${bin("carryover-post-compact")}",\n`);
    expect(result.out).toContain("dry run: nothing was written");
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(USER_SETTINGS);
    expect(existsSync(join(kit.home, ".claude/carryover"))).toBe(false);
  });

  it("installs the compact-prep skill into the scope's skills dir, its executable runnable", async () => {
    await kit.run("install", "compact-prep");
    const dir = join(kit.home, ".claude/skills/compact-prep");
    expect(readFileSync(join(dir, "SKILL.md"), "utf8")).toContain("name: compact-prep");
    expect(statSync(join(dir, "carryover-state")).mode & 0o777).toBe(0o755);
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(USER_SETTINGS);
  });

  it("never overwrites a skill it did not install, unless --force", async () => {
    const skill = join(kit.home, ".claude/skills/compact-prep/SKILL.md");
    mkdirSync(join(skill, ".."), { recursive: true });
    writeFileSync(skill, "my own compact-prep\n");
    const refused = await kit.run("install", "--recommended");
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      `carryover: ${skill} exists and is not carryover's; ` +
        "move it away or pass --force to overwrite it (nothing was written)\n",
    );
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(USER_SETTINGS);
    expect(existsSync(bin("carryover-post-compact"))).toBe(false);
    expect((await kit.run("install", "compact-prep", "--force")).code).toBe(0);
    expect(readFileSync(skill, "utf8")).toContain("name: compact-prep");
  });

  it("writes through a symlinked settings.json: the link stays a link", async () => {
    const real = join(kit.root, "dotfiles/settings.json");
    kit.writeSettings(USER_SETTINGS, real);
    kit.writeSettings("", kit.settingsPath);
    const { rmSync } = await import("node:fs");
    rmSync(kit.settingsPath);
    symlinkSync(real, kit.settingsPath);
    await kit.run("install", "post-compact");
    expect(lstatSync(kit.settingsPath).isSymbolicLink()).toBe(true);
    expect(readlinkSync(kit.settingsPath)).toBe(real);
    expect(JSON.parse(readFileSync(real, "utf8")).hooks.PostCompact).toHaveLength(1);
  });

  it("backs up the settings file before changing it", async () => {
    const result = await kit.run("install", "post-compact");
    const backup = /backup of the previous file: ~(\S+)/.exec(result.out)?.[1];
    expect(backup).toBeDefined();
    expect(readFileSync(join(kit.home, backup!), "utf8")).toBe(USER_SETTINGS);
  });

  it("refuses a release whose executable does not match the manifest's sha256", async () => {
    writeFileSync(join(kit.release, "bin/carryover-post-compact.cjs"), "#!/bin/sh\necho tampered\n");
    const result = await kit.run("install", "post-compact");
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/carryover-post-compact\.cjs: sha256 [0-9a-f]{12}… does not match the manifest's/);
    expect(existsSync(bin("carryover-post-compact"))).toBe(false);
  });

  it("installs from another release dir with --from, replacing an older executable in place", async () => {
    await kit.run("install", "post-compact");
    const newer = join(kit.root, "release-0.2.0");
    mkdirSync(newer);
    writeFakeRelease(newer, "0.2.0");
    const result = await kit.run("install", "post-compact", "--from", newer);
    expect(result.out).toContain("post-compact 0.2.0");
    expect(readFileSync(bin("carryover-post-compact"), "utf8")).toContain("post-compact 0.2.0");
    expect(settings().hooks.PostCompact).toHaveLength(1);
  });
});

describe("bad input", () => {
  it("malformed settings.json: one line naming file, line and column; nothing written", async () => {
    kit.writeSettings('{\n  "model": "opus",\n  "hooks": {,}\n}\n');
    const result = await kit.run("install", "post-compact");
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      new RegExp(`^carryover: ${kit.settingsPath}:3:13: invalid JSON: .+; fix the JSON there\\n$`),
    );
    expect(existsSync(join(kit.home, ".claude/carryover"))).toBe(false);
  });

  it("unknown hook: names the closest one", async () => {
    const result = await kit.run("install", "post-compat");
    expect(result).toMatchObject({
      code: 2,
      err: 'carryover: unknown hook "post-compat"; did you mean "post-compact"?\n',
    });
  });

  it("unknown option and bad scope: usage errors", async () => {
    expect((await kit.run("install", "--dryrun")).err).toBe(
      "carryover: unknown option --dryrun; did you mean --dry-run?\n",
    );
    expect((await kit.run("install", "pin", "--scope", "global")).err).toBe(
      'carryover: --scope must be one of user, project, local; got "global"\n',
    );
  });

  it("hooks that is not an object: refused, nothing written", async () => {
    kit.writeSettings('{"hooks": []}\n');
    const result = await kit.run("install", "post-compact");
    expect(result.err).toBe(
      `carryover: ${kit.settingsPath}: "hooks" is not an object; fix it by hand first, nothing was written\n`,
    );
    expect(readFileSync(kit.settingsPath, "utf8")).toBe('{"hooks": []}\n');
  });

  it.skipIf(process.getuid?.() === 0)("no permission: a clear error, nothing written", async () => {
    const { chmodSync } = await import("node:fs");
    chmodSync(join(kit.home, ".claude"), 0o555);
    const result = await kit.run("install", "post-compact");
    chmodSync(join(kit.home, ".claude"), 0o755);
    expect(result.code).toBe(1);
    expect(result.err).toContain("permission denied");
    expect(readFileSync(kit.settingsPath, "utf8")).toBe(USER_SETTINGS);
  });
});
