import { spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExecutable } from "./index.mjs";

const SESSION = "9c6cd707-b302-43ce-83ed-ec04fb1bd89d";
let dir: string;
let hook: string;
let statusLine: string;
let plain: string;

/** A package dir the build reads as it reads a hook's: package.json's `carryover` field, src/bin.ts, src/hook.ts. */
function writePackage(name: string, field: Record<string, unknown>, hookFile?: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name, carryover: field }));
  const bin = [
    `const { writeSync } = require("node:fs");`,
    `const env = process.env;`,
    `const names = ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "NODE_COMPILE_CACHE"];`,
    `const seen = [...names, ...names.map((name) => "CARRYOVER_USER_" + name), "CARRYOVER_NODE_COMPILE_CACHE"];`,
    `writeSync(1, "JS " + JSON.stringify(Object.fromEntries(seen.map((k) => [k, env[k] ?? null]))) + "\\n");`,
  ].join("\n");
  writeFileSync(join(root, "src/bin.ts"), bin);
  if (hookFile) writeFileSync(join(root, "src/hook.ts"), hookFile);
  return root;
}

const HOOK_FILE = [
  "export const shFastPath = {",
  '  UserPromptSubmit: `[ -e "$session/markers/pending.json" ] || [ -e "$project/.claude/want" ] || exit 0`,',
  "};",
  "export const shRun = {",
  '  UserPromptSubmit: `if [ -e "$project/.claude/sh-does-it" ]; then echo "SH $c"; exit 0; fi`,',
  "};",
].join("\n");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "carryover-build-prelude-"));
  const hookRoot = writePackage("hook", { hook: "probe" }, HOOK_FILE);
  hook = (await buildExecutable({ entry: "src/bin.ts", outfile: join(dir, "bin/carryover-probe"), cwd: hookRoot }))
    .outfile;
  const lineRoot = writePackage("line", { hook: "line", statusLine: true });
  statusLine = (await buildExecutable({ entry: "src/bin.ts", outfile: join(dir, "bin/carryover-line"), cwd: lineRoot }))
    .outfile;
  const plainRoot = writePackage("plain", {});
  plain = (await buildExecutable({ entry: "src/bin.ts", outfile: join(dir, "plain.cjs"), cwd: plainRoot })).outfile;
  mkdirSync(join(dir, "home/.claude/carryover/log"), { recursive: true });
  mkdirSync(join(dir, "home/.claude/carryover/sessions", SESSION, "markers"), { recursive: true });
  mkdirSync(join(dir, "project/.claude"), { recursive: true });
  mkdirSync(join(dir, "nodeless"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** PATH holding the Node running this test, and the tools a shell needs. */
const nodePath = () => `${dirname(process.execPath)}:/usr/bin:/bin`;

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: nodePath(),
    HOME: join(dir, "home"),
    CLAUDE_CODE_SESSION_ID: SESSION,
    CLAUDE_PROJECT_DIR: join(dir, "project"),
    ...extra,
  };
}

const sh = (file: string, args: string[], extra?: Record<string, string>) =>
  spawnSync("/bin/sh", [file, ...args], { encoding: "utf8", env: env(extra), input: "{}" });

/** The variables the bundle's JavaScript saw. */
const seen = (run: { stdout: string }) => JSON.parse(run.stdout.replace(/^JS /, ""));
const ourCache = () => join(dir, "home/.claude/carryover/cache/node-compile");

const logText = () => {
  try {
    return readFileSync(join(dir, "home/.claude/carryover/log/carryover.log"), "utf8");
  } catch {
    return "";
  }
};

describe("an executable is a POSIX sh script and the JavaScript bundle", () => {
  it("runs its JavaScript as `node <file>`, the prelude read as strings and comments", () => {
    const run = spawnSync(process.execPath, [hook], {
      encoding: "utf8",
      env: env({ NODE_OPTIONS: "--no-deprecation" }),
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain('"NODE_OPTIONS":"--no-deprecation"');
    expect(readFileSync(hook, "utf8").split("\n")[0]).toBe("#!/bin/sh");
  });

  it("keeps the node shebang for what is not a hook", () => {
    expect(readFileSync(plain, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("starts Node without NODE_OPTIONS or NODE_EXTRA_CA_CERTS, which a --require of a missing file would break", () => {
    const run = sh(hook, ["SessionStart"], {
      NODE_OPTIONS: "--require /gone.cjs",
      NODE_EXTRA_CA_CERTS: "/etc/ssl/x.pem",
    });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(seen(run)).toMatchObject({
      NODE_OPTIONS: null,
      NODE_EXTRA_CA_CERTS: null,
      CARRYOVER_USER_NODE_OPTIONS: null,
    });
  });

  it("hands the status line the user's values, for the command it chains", () => {
    const run = sh(statusLine, [], {
      NODE_OPTIONS: "--require /gone.cjs",
      NODE_EXTRA_CA_CERTS: "",
      NODE_COMPILE_CACHE: "/theirs",
    });
    expect(seen(run)).toEqual({
      NODE_OPTIONS: null,
      NODE_EXTRA_CA_CERTS: null,
      NODE_COMPILE_CACHE: ourCache(),
      CARRYOVER_USER_NODE_OPTIONS: "--require /gone.cjs",
      CARRYOVER_USER_NODE_EXTRA_CA_CERTS: "",
      CARRYOVER_USER_NODE_COMPILE_CACHE: "/theirs",
      CARRYOVER_NODE_COMPILE_CACHE: ourCache(),
    });
  });

  it("gives the status line's Node a compile cache under carryover's root, once that exists", () => {
    expect(seen(sh(statusLine, []))).toMatchObject({ NODE_COMPILE_CACHE: ourCache() });
    expect(readdirSync(ourCache())).toEqual([expect.stringMatching(new RegExp(`^${process.version}-`))]);
    const configDir = join(dir, "config-cache");
    mkdirSync(join(configDir, "carryover"), { recursive: true });
    expect(seen(sh(statusLine, [], { CLAUDE_CONFIG_DIR: configDir }))).toMatchObject({
      NODE_COMPILE_CACHE: join(configDir, "carryover/cache/node-compile"),
    });
    const fresh = join(dir, "fresh-home");
    mkdirSync(fresh);
    for (const extra of [{ HOME: fresh }, { CLAUDE_CONFIG_DIR: "rel/.claude" }, { HOME: "" }]) {
      expect(
        seen(sh(statusLine, [], { ...extra, NODE_COMPILE_CACHE: "/theirs" })),
        JSON.stringify(extra),
      ).toMatchObject({
        NODE_COMPILE_CACHE: null,
        CARRYOVER_NODE_COMPILE_CACHE: null,
        CARRYOVER_USER_NODE_COMPILE_CACHE: "/theirs",
      });
    }
    expect(readdirSync(fresh)).toEqual([]);
    // A hook other than the status line leaves the user's alone.
    expect(seen(sh(hook, ["SessionStart"], { NODE_COMPILE_CACHE: "/theirs" }))).toMatchObject({
      NODE_COMPILE_CACHE: "/theirs",
      CARRYOVER_NODE_COMPILE_CACHE: null,
    });
  });

  it("does the same sourced by the status line's command in Claude Code's own sh, which names the file", () => {
    const sourced = (extra?: Record<string, string>) =>
      spawnSync("/bin/sh", ["-c", `carryover_statusline='${statusLine}'; . "$carryover_statusline"`], {
        encoding: "utf8",
        env: env(extra),
        input: "{}",
      });
    const run = sourced({ NODE_OPTIONS: "--require /gone.cjs" });
    expect(run).toMatchObject({ status: 0, stderr: "" });
    expect(JSON.parse(run.stdout.replace(/^JS /, ""))).toMatchObject({
      NODE_OPTIONS: null,
      CARRYOVER_USER_NODE_OPTIONS: "--require /gone.cjs",
    });
    const fake = join(dir, "fake-node");
    writeFileSync(fake, '#!/bin/sh\necho "LINKED $*"\n');
    chmodSync(fake, 0o755);
    symlinkSync(fake, join(dir, "bin/node"));
    try {
      expect(sourced().stdout).toBe(`LINKED ${statusLine}\n`);
    } finally {
      rmSync(join(dir, "bin/node"));
      rmSync(fake);
    }
    const before = logText();
    expect(sourced({ PATH: join(dir, "nodeless") })).toMatchObject({
      status: 0,
      stdout: "carryover: no node found - run carryover doctor\n",
    });
    expect(logText().slice(before.length)).toContain(`line: no node found (${join(dir, "bin")}/node,`);
  });

  it("prefers the Node linked beside it (the installer's choice) to PATH's", () => {
    const fake = join(dir, "fake-node");
    writeFileSync(fake, '#!/bin/sh\necho "LINKED $*"\n');
    chmodSync(fake, 0o755);
    symlinkSync(fake, join(dir, "bin/node"));
    try {
      expect(sh(hook, ["SessionStart"]).stdout).toBe(`LINKED ${hook} SessionStart\n`);
      // A link whose Node is gone (nvm uninstall): PATH's.
      rmSync(fake);
      expect(sh(hook, ["SessionStart"]).stdout).toContain("JS ");
    } finally {
      rmSync(join(dir, "bin/node"));
    }
  });

  it("without any Node, a hook exits 0 silently and logs one line; the status line says why it shows nothing", () => {
    rmSync(join(dir, "home/.claude/carryover/log"), { recursive: true, force: true });
    const before = logText();
    const run = sh(hook, ["SessionStart"], { PATH: join(dir, "nodeless") });
    expect(run).toMatchObject({ status: 0, stdout: "", stderr: "" });
    const added = logText().slice(before.length);
    expect(added).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:]{8}Z probe: no node found \(.*\/bin\/node, PATH=.*nodeless\); see carryover doctor\n$/,
    );
    expect(statSync(join(dir, "home/.claude/carryover/log")).mode & 0o777).toBe(0o700);
    const line = sh(statusLine, [], { PATH: join(dir, "nodeless") });
    expect(line).toMatchObject({ status: 0, stdout: "carryover: no node found - run carryover doctor\n", stderr: "" });
  });

  it("without any Node, logs a hook's case once a day, not on every prompt or render", () => {
    rmSync(join(dir, "home/.claude/carryover/log"), { recursive: true, force: true });
    const nodeless = { PATH: join(dir, "nodeless") };
    const linesBy = (name: string) =>
      logText()
        .split("\n")
        .filter((line) => line.includes(` ${name}: no node found`));
    for (let run = 0; run < 3; run++) {
      expect(sh(hook, ["SessionStart"], nodeless)).toMatchObject({ status: 0, stdout: "", stderr: "" });
      expect(sh(statusLine, [], nodeless)).toMatchObject({ status: 0, stderr: "" });
    }
    expect(linesBy("probe")).toHaveLength(1);
    expect(linesBy("line")).toHaveLength(1);
    // Another PATH is another case: the user may have moved Node, and the log says where the hooks looked.
    mkdirSync(join(dir, "nodeless-2"), { recursive: true });
    sh(hook, ["SessionStart"], { PATH: join(dir, "nodeless-2") });
    expect(linesBy("probe")).toHaveLength(2);
    // The next day, the same case is logged again.
    const stamp = join(dir, "home/.claude/carryover/log/no-node.probe");
    writeFileSync(stamp, readFileSync(stamp, "utf8").replace(/^\d{4}-\d\d-\d\d/, "2000-01-01"));
    sh(hook, ["SessionStart"], { PATH: join(dir, "nodeless-2") });
    expect(linesBy("probe")).toHaveLength(3);
  });
});

describe("the hook's sh probe decides before Node starts", () => {
  const markers = () => join(dir, "home/.claude/carryover/sessions", SESSION, "markers");

  it("exits for nothing to do, and starts Node when a file says there is work", () => {
    expect(sh(hook, ["UserPromptSubmit"])).toMatchObject({ status: 0, stdout: "" });
    writeFileSync(join(markers(), "pending.json"), "{}");
    expect(sh(hook, ["UserPromptSubmit"]).stdout).toContain("JS ");
    rmSync(join(markers(), "pending.json"));
    writeFileSync(join(dir, "project/.claude/want"), "");
    expect(sh(hook, ["UserPromptSubmit"]).stdout).toContain("JS ");
    rmSync(join(dir, "project/.claude/want"));
  });

  it("does the work in sh where the hook's run can, once the probe fell through, and else starts Node", () => {
    const canDo = join(dir, "project/.claude/sh-does-it");
    writeFileSync(canDo, "");
    try {
      expect(sh(hook, ["UserPromptSubmit"]).stdout).toBe("");
      writeFileSync(join(dir, "project/.claude/want"), "");
      expect(sh(hook, ["UserPromptSubmit"]).stdout).toBe(`SH ${join(dir, "home/.claude")}\n`);
      // The run reads the prelude's `$c`, never one from the environment, and steps aside for CARRYOVER_DEBUG.
      expect(sh(hook, ["UserPromptSubmit"], { CARRYOVER_DEBUG: "1", c: "/theirs" }).stdout).toContain("JS ");
      expect(sh(hook, ["UserPromptSubmit"], { CLAUDE_CODE_SESSION_ID: "", c: "/theirs" }).stdout).toContain("JS ");
      expect(sh(hook, ["SessionStart"]).stdout).toContain("JS ");
      rmSync(canDo);
      expect(sh(hook, ["UserPromptSubmit"]).stdout).toContain("JS ");
    } finally {
      rmSync(canDo, { force: true });
      rmSync(join(dir, "project/.claude/want"), { force: true });
    }
  });

  it("runs only for its event", () => {
    expect(sh(hook, ["SessionStart"]).stdout).toContain("JS ");
    expect(sh(hook, []).stdout).toContain("JS ");
  });

  it("finds carryover's files under CLAUDE_CONFIG_DIR", () => {
    const configDir = join(dir, "config-dir");
    mkdirSync(join(configDir, "carryover/sessions", SESSION, "markers"), { recursive: true });
    writeFileSync(join(configDir, "carryover/sessions", SESSION, "markers/pending.json"), "{}");
    expect(sh(hook, ["UserPromptSubmit"], { CLAUDE_CONFIG_DIR: configDir }).stdout).toContain("JS ");
    expect(sh(hook, ["UserPromptSubmit"], { CLAUDE_CONFIG_DIR: join(dir, "home/.claude") }).stdout).toBe("");
  });

  it.each([
    ["a relative CLAUDE_CONFIG_DIR", { CLAUDE_CONFIG_DIR: "rel/.claude" }],
    ["a CLAUDE_CONFIG_DIR through ..", { CLAUDE_CONFIG_DIR: "/x/../y" }],
    ["no HOME and no CLAUDE_CONFIG_DIR", { HOME: "" }],
    ["an unsafe session id", { CLAUDE_CODE_SESSION_ID: "../../etc" }],
    ["a session id of 129 characters", { CLAUDE_CODE_SESSION_ID: "a".repeat(129) }],
    ["no session id", { CLAUDE_CODE_SESSION_ID: "" }],
    ["a relative project dir", { CLAUDE_PROJECT_DIR: "proj" }],
    ["CARRYOVER_DEBUG (Node traces its decision)", { CARRYOVER_DEBUG: "1" }],
  ])("leaves the decision to Node with %s", (_, extra) => {
    expect(sh(hook, ["UserPromptSubmit"], extra).stdout).toContain("JS ");
  });

  it("honours the switches before anything else, and leaves the spellings it does not know to Node", () => {
    expect(sh(hook, ["SessionStart"], { CARRYOVER: "0" }).stdout).toBe("");
    expect(sh(hook, ["SessionStart"], { CARRYOVER_DISABLE: "pin,probe" }).stdout).toBe("");
    expect(sh(hook, ["SessionStart"], { CARRYOVER_DISABLE: "pin, probe" }).stdout).toContain("JS ");
    // The status line shows the command it chains even when switched off: Node decides.
    expect(sh(statusLine, [], { CARRYOVER: "0" }).stdout).toContain("JS ");
  });
});

it("refuses a run for an event without a probe: its fast path would come after it", async () => {
  const root = writePackage("runner", { hook: "runner" }, 'export const shRun = { UserPromptSubmit: "exit 0" };');
  await expect(buildExecutable({ entry: "src/bin.ts", outfile: join(dir, "runner.cjs"), cwd: root })).rejects.toThrow(
    /runner: a run for UserPromptSubmit, which has no probe/,
  );
});

it("refuses a probe line that leaves a quote open (the rest would reach JavaScript)", async () => {
  const root = writePackage(
    "bad",
    { hook: "bad" },
    'export const shFastPath = { UserPromptSubmit: `[ -e "$session/x ] || exit 0` };',
  );
  await expect(buildExecutable({ entry: "src/bin.ts", outfile: join(dir, "bad.cjs"), cwd: root })).rejects.toThrow(
    /bad: the UserPromptSubmit probe line .* leaves a quote open/,
  );
});
