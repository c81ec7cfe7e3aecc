// settings.json in the user's hands: generated files survive install → uninstall byte for byte, malformed
// ones are refused in one line and left alone, and two installs at once leave it valid and complete.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../../apps/cli/src/cli.ts";
import type { Io } from "../../apps/cli/src/io.ts";
import { recordFigures } from "./figures.ts";
import { CARRYOVER_CLI, ROOT } from "./hooks.ts";
import { createSandbox, type Sandbox } from "./sandbox.ts";
import { runFile } from "./spawn.ts";
import { diffTrees, snapshotTree } from "./tree.ts";

const RELEASE = join(ROOT, "apps", "cli", "dist", "release");
const SEED = Number(process.env.CARRYOVER_FUZZ_SEED ?? 20_261_129);
const SETTINGS_FILES = 100;
const INSTALL_RACES = 10;
let sandbox: Sandbox;

beforeAll(() => {
  expect(existsSync(join(RELEASE, "manifest.json")), `${RELEASE} is not built: run pnpm build`).toBe(true);
  sandbox = createSandbox("settings");
});
afterAll(() => sandbox.cleanup());

const settingsPath = (home: string) => join(home, ".claude", "settings.json");

/** `carryover <argv>` in-process against a HOME, with the release the built CLI ships. */
async function carryover(home: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: Io = {
    env: { HOME: home, PATH: process.env.PATH, TMPDIR: sandbox.tmp },
    cwd: sandbox.project,
    nowMs: Date.parse("2026-11-29T12:00:00Z"),
    stdoutIsTty: false,
    shippedReleaseDir: RELEASE,
    managedSettingsDir: join(sandbox.root, "managed"),
    out: (text) => (out += text),
    err: (text) => (err += text),
  };
  const code = await runCli(argv, io, "0.0.0-reliability");
  return { code, out, err };
}

// What users keep in settings.json: other tools' hooks (both command forms), a status line, permissions,
// env, keys Claude Code does not know, unicode, nested arrays; laid out with any indentation.
const hookHandler = fc.oneof(
  fc.record({
    type: fc.constant("command"),
    command: fc.constantFrom("~/bin/notify.sh", "node /opt/guard.js", "echo '✓ done'", "python3 -m lint"),
  }),
  fc.record({
    type: fc.constant("command"),
    command: fc.constant("/usr/local/bin/audit"),
    args: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
    timeout: fc.integer({ min: 1, max: 600 }),
  }),
);
const hookGroups = fc.array(
  fc.record(
    {
      matcher: fc.constantFrom("", "Bash", "Write|Edit", "compact", "startup|resume"),
      hooks: fc.array(hookHandler, { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ["hooks"] },
  ),
  { minLength: 1, maxLength: 2 },
);
const settingsValue = fc.record(
  {
    hooks: fc.dictionary(
      fc.constantFrom(
        "UserPromptSubmit",
        "SessionStart",
        "PreCompact",
        "PostCompact",
        "Stop",
        "PreToolUse",
        "PostToolUse",
      ),
      hookGroups,
      { maxKeys: 4 },
    ),
    statusLine: fc.record(
      {
        type: fc.constant("command"),
        command: fc.constantFrom(
          "~/.claude/statusline.sh",
          "npx ccstatusline",
          "printf '%s' \"$(git branch --show-current)\"",
        ),
        padding: fc.integer({ min: 0, max: 2 }),
      },
      { requiredKeys: ["type", "command"] },
    ),
    permissions: fc.record({
      allow: fc.array(fc.constantFrom("Bash(npm test:*)", "Read(~/.zshrc)", "WebFetch"), { maxLength: 3 }),
      deny: fc.array(fc.string(), { maxLength: 2 }),
    }),
    env: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ unit: "grapheme", maxLength: 20 }), {
      maxKeys: 3,
    }),
    model: fc.constantFrom("opus", "sonnet", "claude-opus-5-5"),
    "x-my-tool": fc.jsonValue({ maxDepth: 3 }),
    注釈: fc.string({ unit: "grapheme", maxLength: 30 }),
    enabledPlugins: fc.dictionary(fc.constantFrom("a@market", "b@market"), fc.boolean()),
  },
  { requiredKeys: [] },
);
const settingsText = fc
  .tuple(settingsValue, fc.constantFrom("  ", "    ", "\t", 1, 0), fc.boolean(), fc.boolean())
  .map(([value, indent, crlf, finalNewline]) => {
    const text =
      typeof indent === "number"
        ? JSON.stringify(value, null, indent === 1 ? 2 : undefined)
        : JSON.stringify(value, null, indent);
    const lines = crlf ? text.replace(/\n/g, "\r\n") : text;
    return finalNewline ? `${lines}${crlf ? "\r\n" : "\n"}` : lines;
  });

describe("settings.json", () => {
  // Through install --all → uninstall --all, byte for byte.
  test("100 generated files (other hooks, a status line, unknown keys, unicode, any layout) survive", async () => {
    const files = fc.sample(settingsText, { seed: SEED, numRuns: SETTINGS_FILES });
    const failures: string[] = [];
    let registered = 0;
    for (const [index, text] of files.entries()) {
      const home = join(sandbox.root, "homes", `h${index}`);
      mkdirSync(join(home, ".claude"), { recursive: true });
      writeFileSync(settingsPath(home), text);
      const install = await carryover(home, "install", "--all");
      const installed = readFileSync(settingsPath(home), "utf8");
      if (install.code !== 0) failures.push(`#${index}: install exit ${install.code}: ${install.err}`);
      else if (!installed.includes(join(home, ".claude", "carryover", "bin")))
        failures.push(`#${index}: install registered nothing`);
      else registered += 1;
      const uninstall = await carryover(home, "uninstall", "--all");
      if (uninstall.code !== 0) failures.push(`#${index}: uninstall exit ${uninstall.code}: ${uninstall.err}`);
      if (readFileSync(settingsPath(home), "utf8") !== text)
        failures.push(
          `#${index} (seed ${SEED}): not restored byte for byte; original ${JSON.stringify(text.slice(0, 200))}`,
        );
    }
    recordFigures("settings.roundtrip", {
      files: files.length,
      seed: SEED,
      registered,
      restoredByteForByte: files.length - failures.length,
    });
    expect(failures.slice(0, 10)).toEqual([]);
    expect(registered).toBe(SETTINGS_FILES);
  }, 120_000);

  const malformed: Record<string, string> = {
    "trailing comma": '{\n  "model": "opus",\n  "hooks": {},\n}\n',
    truncated: '{\n  "hooks": {\n    "Stop": [{"hooks": [{"type": "command", "command": "x"',
    "two documents": '{"model": "opus"}\n{"model": "sonnet"}\n',
    "a comment": '{\n  // mine\n  "model": "opus"\n}\n',
    "not an object": '["hooks"]\n',
  };

  test.each(Object.entries(malformed))(
    "malformed (%s): install and uninstall refuse it in one line naming the file, and leave it untouched",
    async (what, text) => {
      const home = join(sandbox.root, "malformed", what.replace(/\W+/g, "-"));
      mkdirSync(join(home, ".claude"), { recursive: true });
      writeFileSync(settingsPath(home), text);
      const before = snapshotTree(home);
      for (const argv of [
        ["install", "--all"],
        ["uninstall", "--all"],
      ]) {
        const result = await carryover(home, ...argv);
        expect(result.code).not.toBe(0);
        expect(result.err.split("\n").filter(Boolean)).toHaveLength(1);
        expect(result.err).toContain(settingsPath(home));
      }
      expect(readFileSync(settingsPath(home), "utf8")).toBe(text);
      expect(diffTrees(before, snapshotTree(home))).toEqual([]);
    },
  );

  // Claude Code 2.1.332 runs the hooks of a settings.json that starts with a BOM:
  // field/settings-bom.claude.e2e.test.ts.
  test("a BOM is not malformed: install keeps it, and uninstall restores the file byte for byte", async () => {
    const home = join(sandbox.root, "bom");
    mkdirSync(join(home, ".claude"), { recursive: true });
    const text = '\ufeff{\n  "model": "opus"\n}\n';
    writeFileSync(settingsPath(home), text);
    expect((await carryover(home, "install", "post-compact")).code).toBe(0);
    const installed = readFileSync(settingsPath(home), "utf8");
    expect(installed.startsWith('\ufeff{\n  "model": "opus",')).toBe(true);
    expect(installed).toContain('/carryover/bin/carryover-post-compact"');
    expect((await carryover(home, "uninstall", "--all")).code).toBe(0);
    expect(readFileSync(settingsPath(home), "utf8")).toBe(text);
  });

  test("two installs of other hooks at once, 10 times: valid JSON, the hooks of both, the user's keys", async () => {
    const original =
      '{\n  "model": "opus",\n  "hooks": {\n' +
      '    "Stop": [{"hooks": [{"type": "command", "command": "~/bin/notify.sh"}]}]\n  }\n}\n';
    const halves = [
      ["recovery", "post-compact", "pre-compact"],
      ["pin", "prep-reminder", "memory-guard", "statusline"],
    ];
    const problems: string[] = [];
    for (let round = 1; round <= INSTALL_RACES; round++) {
      const home = join(sandbox.root, "races", `r${round}`);
      mkdirSync(join(home, ".claude"), { recursive: true });
      writeFileSync(settingsPath(home), original);
      const env = { HOME: home, PATH: process.env.PATH ?? "", TMPDIR: sandbox.tmp };
      const runs = await Promise.all(
        halves.map((hooks) =>
          runFile(CARRYOVER_CLI, {
            env,
            cwd: sandbox.project,
            args: ["install", ...hooks],
            stdin: "",
            deadlineMs: 30_000,
          }),
        ),
      );
      for (const run of runs)
        if (run.code !== 0) problems.push(`round ${round}: install exit ${run.code}: ${run.stderr.trim()}`);
      let settings: { model?: string; hooks?: Record<string, unknown>; statusLine?: { command?: string } };
      try {
        settings = JSON.parse(readFileSync(settingsPath(home), "utf8"));
      } catch (error) {
        problems.push(`round ${round}: settings.json is not JSON: ${String(error)}`);
        continue;
      }
      const text = JSON.stringify(settings);
      // A hook's path ends its JSON string; the status line's command goes on (it sources the file).
      const missing = halves.flat().filter((hook) => !new RegExp(`/carryover/bin/carryover-${hook}[";]`).test(text));
      if (missing.length > 0) problems.push(`round ${round}: settings.json lacks ${missing.join(", ")}`);
      if (settings.model !== "opus" || !text.includes("~/bin/notify.sh"))
        problems.push(`round ${round}: the user's keys are gone`);
      const uninstall = await runFile(CARRYOVER_CLI, {
        env,
        cwd: sandbox.project,
        args: ["uninstall", "--all"],
        stdin: "",
        deadlineMs: 30_000,
      });
      if (uninstall.code !== 0 || readFileSync(settingsPath(home), "utf8") !== original)
        problems.push(`round ${round}: uninstall --all did not restore the original (${uninstall.stderr.trim()})`);
    }
    recordFigures("settings.install-race", {
      rounds: INSTALL_RACES,
      complete: INSTALL_RACES - new Set(problems.map((problem) => problem.split(":")[0])).size,
      problems,
    });
    expect(problems).toEqual([]);
  }, 180_000);
});
