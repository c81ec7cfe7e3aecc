import { chmodSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createKit, type Kit } from "../../../test/kit.ts";
import { OBSERVED_CLAUDE_CODE } from "../../doctor/claude.ts";

let kit: Kit;
beforeEach(() => {
  kit = createKit();
  kit.writeSettings('{"statusLine": {"type": "command", "command": "echo mine"}}\n');
});
afterEach(() => kit.cleanup());

const bin = (name: string) => join(kit.home, ".claude/carryover/bin", name);
const doctorJson = async () => {
  const result = await kit.run("doctor", "--json");
  return {
    code: result.code,
    ...(JSON.parse(result.out) as { ok: boolean; checks: Array<{ status: string; title: string; fix?: string }> }),
  };
};
const failures = (checks: Array<{ status: string; title: string; fix?: string }>) =>
  checks.filter((check) => check.status === "fail");

it("a healthy install: exit 0, each hook's executable and registration checked", async () => {
  await kit.run("install", "--recommended");
  const result = await kit.run("doctor");
  expect(result.code).toBe(0);
  expect(result.out).toContain(
    "✔ post-compact 0.1.0: ~/.claude/carryover/bin/carryover-post-compact present, executable, sha256 as installed\n",
  );
  expect(result.out).toContain("✔ recovery registered in ~/.claude/settings.json\n");
  expect(result.out).toContain("✔ status line slot: carryover's statusline (~/.claude/settings.json)\n");
  expect(result.out).toContain("✔ skill compact-prep: ~/.claude/skills/compact-prep as installed\n");
  expect(result.out).toContain(`✔ hooks start node v24.11.0: ${join(kit.root, "node-bin/node")}, linked beside them\n`);
  expect(result.out).toMatch(/no problems\n$/);
});

it("names a linked Node that is gone (an nvm uninstall) and the node the hooks fall back to", async () => {
  await kit.run("install", "post-compact");
  const gone = join(kit.root, "nvm/v22.1.0/bin/node");
  rmSync(bin("node"));
  symlinkSync(gone, bin("node"));
  const report = await doctorJson();
  expect(report.checks).toContainEqual({
    status: "warn",
    title: `the Node linked for the hooks (${gone}) is gone: they start node v24.11.0 from PATH instead`,
    fix: "carryover install <your hooks> again links the one on PATH",
  });
});

it("says whether Claude Code's NODE_OPTIONS reaches the hooks: only those registered as node <file>", async () => {
  await kit.run("install", "post-compact");
  kit.env.NODE_OPTIONS = "--require /gone.cjs";
  const titles = async () => (await doctorJson()).checks.filter((check) => check.title.includes("NODE_OPTIONS"));
  expect(await titles()).toEqual([
    {
      status: "ok",
      title: "NODE_OPTIONS is set; the hooks start Node without it (the status line hands it to the command it chains)",
    },
  ]);
  kit.writeSettings(
    JSON.stringify({
      hooks: {
        PostCompact: [
          { hooks: [{ type: "command", command: "node", args: [bin("carryover-post-compact")], timeout: 10 }] },
        ],
      },
    }),
  );
  expect(await titles()).toEqual([
    {
      status: "warn",
      title: "NODE_OPTIONS is set and reaches the 1 carryover hook(s) still registered as node <file>",
      fix: "carryover install <your hooks> again registers them through /bin/sh, which starts Node without it",
    },
  ]);
});

it("a missing, a non-executable and a changed executable each fail with the fix", async () => {
  await kit.run("install", "post-compact", "recovery", "statusline");
  rmSync(bin("carryover-post-compact"));
  chmodSync(bin("carryover-recovery"), 0o644);
  writeFileSync(bin("carryover-statusline"), "#!/bin/sh\necho changed\n");
  const report = await doctorJson();
  expect(report.code).toBe(1);
  expect(report.ok).toBe(false);
  expect(failures(report.checks)).toEqual([
    {
      status: "fail",
      title: "~/.claude/carryover/bin/carryover-post-compact is missing",
      fix: "carryover install post-compact",
    },
    {
      status: "fail",
      title: "~/.claude/carryover/bin/carryover-recovery is not executable",
      fix: "chmod +x ~/.claude/carryover/bin/carryover-recovery, or carryover install recovery",
    },
    {
      status: "fail",
      title: "~/.claude/carryover/bin/carryover-statusline changed since it was installed (sha256 differs)",
      fix: "carryover install statusline",
    },
  ]);
  const text = await kit.run("doctor");
  expect(text.out).toContain(
    "✖ ~/.claude/carryover/bin/carryover-post-compact is missing\n    fix: carryover install post-compact\n",
  );
  expect(text.out).toMatch(/3 problems found\n$/);
});

it("a registration removed by hand fails with the scope to reinstall into", async () => {
  await kit.run("install", "post-compact");
  kit.writeSettings('{"statusLine": {"type": "command", "command": "echo mine"}}\n');
  const report = await doctorJson();
  expect(failures(report.checks)).toEqual([
    {
      status: "fail",
      title: "post-compact: PostCompact missing from ~/.claude/settings.json",
      fix: "carryover install post-compact --scope user",
    },
  ]);
});

it("disableAllHooks and managed allowManagedHooksOnly are failures", async () => {
  await kit.run("install", "post-compact");
  kit.writeSettings(
    JSON.stringify({
      disableAllHooks: true,
      hooks: {
        PostCompact: [
          { hooks: [{ type: "command", command: "node", args: [bin("carryover-post-compact")], timeout: 10 }] },
        ],
      },
    }),
  );
  mkdirSync(kit.managedDir, { recursive: true });
  writeFileSync(join(kit.managedDir, "managed-settings.json"), '{"allowManagedHooksOnly": true}');
  const titles = failures((await doctorJson()).checks).map((check) => check.title);
  expect(titles).toEqual([
    "disableAllHooks is true in ~/.claude/settings.json: no hook runs",
    `allowManagedHooksOnly is true in ${join(kit.managedDir, "managed-settings.json")}: ` +
      "hooks from settings.json do not run",
  ]);
});

it("a project status line that hides carryover's fails, naming the scope to chain it in", async () => {
  await kit.run("install", "statusline");
  kit.writeSettings(
    '{"statusLine": {"type": "command", "command": "echo project"}}',
    join(kit.project, ".claude/settings.local.json"),
  );
  expect(failures((await doctorJson()).checks)).toEqual([
    {
      status: "fail",
      title:
        `status line slot: \`echo project\` from ${join(kit.project, ".claude/settings.local.json")} ` +
        "hides carryover's statusline installed in user",
      fix: "carryover install statusline --scope local (chains that status line)",
    },
  ]);
});

it("warns (exit 0) about an untrusted project folder and about auto-memory being off", async () => {
  await kit.run("install", "post-compact", "--scope", "project");
  kit.writeSettings(JSON.stringify({ env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1" } }));
  const report = await doctorJson();
  expect(report.code).toBe(0);
  const warnings = report.checks.filter((check) => check.status === "warn").map((check) => check.title);
  expect(warnings).toEqual([
    `carryover is installed in project scope but ${kit.project} is not a trusted folder yet: ` +
      "Claude Code skips its project hooks",
    "auto-memory is off (CLAUDE_CODE_DISABLE_AUTO_MEMORY in settings.json env): " +
      "pre-compact's dated memory entry and memory-guard have nothing to work on",
  ]);
  await kit.run("uninstall", "--all");
  await kit.run("install", "post-compact", "--scope", "local");
  expect((await doctorJson()).checks.filter((check) => check.status === "warn").map((check) => check.title)[0]).toBe(
    `carryover is installed in local scope but ${kit.project} is not a trusted folder yet: ` +
      "Claude Code skips its local hooks",
  );
  writeFileSync(
    join(kit.home, ".claude.json"),
    JSON.stringify({ projects: { [kit.project]: { hasTrustDialogAccepted: true } } }),
  );
  expect((await doctorJson()).checks).toContainEqual({
    status: "ok",
    title: `${kit.project} is trusted: project hooks run`,
  });
});

it("malformed settings: a failure with file, line and column", async () => {
  kit.writeSettings("{\n  oops\n}\n");
  const report = await doctorJson();
  expect(report.code).toBe(1);
  expect(failures(report.checks)[0]!.title).toMatch(new RegExp(`^${kit.settingsPath}:2:3: invalid JSON`));
});

it("names the Claude Code it finds; warns when it is not the one carryover was checked on, or missing", async () => {
  const bin = join(kit.root, "fake-bin");
  mkdirSync(bin);
  const claude = (version: string) =>
    writeFileSync(join(bin, "claude"), `#!/bin/sh\necho "${version} (Claude Code)"\n`, { mode: 0o755 });
  kit.env.PATH = `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`;
  const claudeCheck = async () =>
    (await doctorJson()).checks.find((check) => /Claude Code \d|`claude`/.test(check.title));
  claude(OBSERVED_CLAUDE_CODE);
  expect(await claudeCheck()).toEqual({
    status: "ok",
    title: `Claude Code ${OBSERVED_CLAUDE_CODE} (${bin}/claude), the version carryover was checked on`,
  });
  claude("2.2.0");
  expect(await claudeCheck()).toMatchObject({
    status: "warn",
    title:
      `Claude Code 2.2.0 (${bin}/claude); carryover was checked on ${OBSERVED_CLAUDE_CODE}: ` +
      "hooks, settings and compaction may behave otherwise",
  });
  rmSync(join(bin, "claude"));
  expect(await claudeCheck()).toMatchObject({ status: "warn", title: expect.stringMatching(/^no `claude` found/) });
});

it("was checked on the Claude Code the repo pins", () => {
  const root = JSON.parse(readFileSync(join(import.meta.dirname, "../../../../../package.json"), "utf8"));
  expect(root.devDependencies["@anthropic-ai/claude-code"]).toBe(OBSERVED_CLAUDE_CODE);
});

it("reports a setting carryover ignores and a CARRYOVER_* name nothing reads, as warnings", async () => {
  await kit.run("install", "post-compact");
  mkdirSync(join(kit.home, ".claude/carryover"), { recursive: true });
  writeFileSync(join(kit.home, ".claude/carryover/config.json"), JSON.stringify({ pin: { everyTurns: 2.5 } }));
  Object.assign(kit.env, {
    CARRYOVER_PIN_EVERYTURNS: "3",
    CARRYOVER_LEVELS: "abc",
    CARRYOVER_DISABLE: "recovery,pinn",
  });
  const report = await doctorJson();
  expect(report.code).toBe(0);
  const warnings = report.checks.filter((check) => check.status === "warn");
  expect(warnings).toEqual(
    expect.arrayContaining([
      {
        status: "warn",
        title: "CARRYOVER_PIN_EVERYTURNS is set but is not a carryover setting: nothing reads it",
        fix: "did you mean CARRYOVER_PIN_EVERY_TURNS?",
      },
      expect.objectContaining({ title: 'CARRYOVER_DISABLE names "pinn", which is no hook' }),
      expect.objectContaining({
        title:
          "ignored, the default stands: CARRYOVER_LEVELS: levels: expected a rising list of whole percents " +
          'from 1 to 100, like [60, 85], got "abc"',
      }),
      expect.objectContaining({
        title:
          `ignored, the default stands: ${join(kit.home, ".claude/carryover/config.json")}: ` +
          "pin.everyTurns: expected a whole number from 1 to 1000, got 2.5",
      }),
    ]),
  );
});

it("reads CARRYOVER_* from a settings.json env as Claude Code hands them to the hooks, over this shell's", async () => {
  await kit.run("install", "post-compact", "recovery");
  const settings = JSON.parse(readFileSync(kit.settingsPath, "utf8"));
  // Claude Code 2.1.332 passes a number on as its text, and a settings file's value over the shell's.
  settings.env = { CARRYOVER_PIN_EVERYTURNS: "3", CARRYOVER_PIN_EVERY_TURNS: 2.5, CARRYOVER_DISABLE: "recovery" };
  kit.writeSettings(JSON.stringify(settings));
  kit.env.CARRYOVER_PIN_EVERY_TURNS = "4";
  const carryoverWarnings = async () =>
    (await doctorJson()).checks.filter((check) => check.status === "warn" && check.title.includes("CARRYOVER"));
  expect(await carryoverWarnings()).toEqual([
    {
      status: "warn",
      title:
        "CARRYOVER_PIN_EVERYTURNS is set in ~/.claude/settings.json env but is not a carryover setting: " +
        "nothing reads it",
      fix: "did you mean CARRYOVER_PIN_EVERY_TURNS?",
    },
    {
      status: "warn",
      title:
        "recovery installed but switched off: CARRYOVER_DISABLE=recovery is set in ~/.claude/settings.json env, " +
        "so it does nothing",
      fix: 'remove CARRYOVER_DISABLE from "env" in ~/.claude/settings.json to turn it on',
    },
    {
      status: "warn",
      title:
        "ignored, the default stands: CARRYOVER_PIN_EVERY_TURNS (in ~/.claude/settings.json env): pin.everyTurns: " +
        'expected a whole number from 1 to 1000, got "2.5"',
      fix: "carryover config <hook> <key> <value> sets a valid one",
    },
  ]);
  kit.writeSettings(JSON.stringify({ ...settings, env: {} }));
  kit.env.CARRYOVER = "0";
  expect(await carryoverWarnings()).toEqual([
    {
      status: "warn",
      title: "post-compact, recovery installed but switched off: CARRYOVER=0 is set, so they do nothing",
      fix: "unset CARRYOVER to turn them on",
    },
  ]);
});

it("follows a stowed ~/.claude/carryover that is the user's own, and names a refused one with the fix", async () => {
  const target = join(kit.home, "dotfiles/claude/.claude/carryover");
  mkdirSync(target, { recursive: true, mode: 0o700 });
  chmodSync(target, 0o700);
  mkdirSync(join(kit.home, ".claude"), { recursive: true });
  symlinkSync("../dotfiles/claude/.claude/carryover", join(kit.home, ".claude/carryover"));
  expect(await kit.run("install", "post-compact")).toMatchObject({ code: 0, err: "" });
  const followed = await doctorJson();
  expect(followed.code).toBe(0);
  expect(followed.checks).toContainEqual({
    status: "ok",
    title:
      "~/.claude/carryover is a symlink to ~/dotfiles/claude/.claude/carryover, a private dir of yours: " +
      "the hooks follow it",
  });

  chmodSync(target, 0o777);
  writeFileSync(join(kit.home, ".claude/carryover.log"), "2026-12-01T10:00:00.000Z post-compact: refusing it\n");
  const refused = await doctorJson();
  expect(refused.code).toBe(1);
  expect(failures(refused.checks)).toContainEqual({
    status: "fail",
    title:
      "refusing ~/.claude/carryover: it is a symlink to ~/dotfiles/claude/.claude/carryover, which is writable by " +
      "others " +
      "(mode 777): every carryover hook does nothing; the hooks log that to ~/.claude/carryover.log, last: " +
      "2026-12-01T10:00:00.000Z post-compact: refusing it",
    fix: `chmod 700 ${target}`,
  });
  chmodSync(target, 0o700);
  expect(await kit.run("uninstall", "--all")).toMatchObject({ code: 0, err: "" });
  expect(lstatSync(join(kit.home, ".claude/carryover")).isSymbolicLink()).toBe(true);
});
