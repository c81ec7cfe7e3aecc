import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AUTO_COMPACT_INPUT_TOKENS,
  autoCompactEnv,
  claudeBin,
  createSandbox,
  expectSuccess,
  expectTextInRequest,
  firstMainAfterCompaction,
  mockScript,
  projectSlug,
  runAutoCompactInLoop,
  runPrint,
  type Sandbox,
  startTui,
} from "@carryover/test-fixtures/e2e";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { hookRuns, ran, registeredCommands } from "./hook-runs.ts";
import { copyCheckout, npmEnv, type Registry, startRegistry } from "./registry.ts";

// Everything is published to a verdaccio on 127.0.0.1 by the release command, from a copy of this checkout
// versioned as a release would be; then installed from it as users install: npx, npm i -g, a plugin marketplace.

interface Published {
  /** package name → version, as the release published them. */
  versions: Map<string, string>;
  /** The CLI's version. */
  cli: string;
}

let root: string;
let registry: Registry;
let checkout: string;
let older: Published;
/** The repo's marketplace.json as the first release left it. */
let olderMarketplace: string;
let newer: Published;
let sandbox: Sandbox | undefined;

// Claude Code 2.1.332's debug line shows a plugin hook's args before it expands ${CLAUDE_PLUGIN_ROOT}.
const PLUGIN_POST_COMPACT = "${CLAUDE_PLUGIN_ROOT}/dist/carryover-post-compact.cjs";

function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): string {
  const result = spawnSync(command, args, { ...options, encoding: "utf8", timeout: 120_000 });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} exited ${result.status}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
  return result.stdout;
}

/** `pnpm version-packages` (changesets, then the marketplace) and `pnpm release`, in the copy. */
function versionAndRelease(): Published {
  const env = npmEnv(process.env as Record<string, string>, registry, join(root, "npm-cache-release"));
  run("pnpm", ["run", "--silent", "version-packages"], { cwd: checkout, env });
  const out = run("pnpm", ["run", "--silent", "release", "--registry", registry.url], { cwd: checkout, env });
  const versions = new Map(
    [...out.matchAll(/^ {2}(\S+)@(\d\S*): published$/gm)].map((match) => [match[1]!, match[2]!]),
  );
  return { versions, cli: versions.get("carryover")! };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "carryover-registry-"));
  registry = await startRegistry(root);
  checkout = join(root, "checkout");
  copyCheckout(checkout);
  older = versionAndRelease();
  olderMarketplace = readFileSync(join(checkout, ".claude-plugin/marketplace.json"), "utf8");
  // The next release: a change to post-compact's code, and a changeset for every package.
  appendFileSync(
    join(checkout, "packages/hook-post-compact/src/bin.ts"),
    "\nexport const releasedAfterTheFirst = true;\n",
  );
  const names = [...older.versions.keys()].map((name) => `"${name}": patch`).join("\n");
  writeFileSync(join(checkout, ".changeset/e2e-next.md"), `---\n${names}\n---\n\npost-compact's next release.\n`);
  newer = versionAndRelease();
}, 300_000);

afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

afterAll(async () => {
  await registry?.close();
  rmSync(root, { recursive: true, force: true });
});

/** post-compact kept the mock's summary in the session's ledger; recovery's context reached the next request. */
function expectCompactionCarried(box: Sandbox, sessionId: string): void {
  const ledger = join(box.claudeDir, "carryover/sessions", sessionId, "compactions.jsonl");
  expect(readFileSync(ledger, "utf8")).toContain("MOCK SUMMARY");
  expectTextInRequest(
    firstMainAfterCompaction(box.mock.requests()),
    "SessionStart hook additional context: carryover recovery:",
  );
}

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

it("the release publishes every package, the CLI last; run again, it skips what the registry has", () => {
  expect([...older.versions.keys()].at(-1)).toBe("carryover");
  expect([...older.versions.keys()].sort()).toEqual([...newer.versions.keys()].sort());
  for (const [name, version] of newer.versions) expect(version).not.toBe(older.versions.get(name));
  const view = run("npm", ["view", `carryover@${newer.cli}`, "bin", "--json"], {
    cwd: root,
    env: npmEnv(process.env as Record<string, string>, registry, join(root, "npm-cache-view")),
  });
  expect(JSON.parse(view)).toEqual({ carryover: "dist/carryover.cjs" });
  // Run again, nothing new: everything is already there.
  const again = run("node", ["scripts/release.mjs", "publish", "--registry", registry.url], {
    cwd: checkout,
    env: npmEnv(process.env as Record<string, string>, registry, join(root, "npm-cache-release")),
  });
  expect(again).toContain(`published 0, skipped ${newer.versions.size} (already there), to ${registry.url}`);
});

// The hooks fire in the real Claude Code; the newer CLI replaces the executables and keeps settings.json and the
// config; uninstall gives settings.json back byte for byte.
it("npx carryover install --recommended in a fresh HOME, a newer release over it, uninstall --all", async () => {
  sandbox = await createSandbox();
  const before =
    '{\n  "statusLine": {"type": "command", "command": "printf MINE"},\n  "spinnerTipsEnabled": false\n}\n';
  writeFileSync(sandbox.settingsPath, before);
  const env = npmEnv(sandbox.env, registry, join(sandbox.root, "npm-cache"));
  const box = { ...sandbox, env };
  const npx = (version: string, args: string[]) =>
    run("npx", [`carryover@${version}`, ...args], { cwd: sandbox!.project, env });

  const installed = npx(older.cli, ["install", "--recommended"]);
  expect(installed).toContain(`post-compact ${older.versions.get("@carryover/hook-post-compact")}`);
  const bin = join(sandbox.claudeDir, "carryover/bin");

  // A prompt, writes (memory-guard's `if` takes only MEMORY.md) and an auto-compaction: every registration the
  // install wrote runs, with status 0.
  const debugFile = join(sandbox.root, "claude-debug.txt");
  const memoryIndex = join(sandbox.claudeDir, "projects", projectSlug(sandbox.project), "memory", "MEMORY.md");
  const steps = [
    { tool: "Write", input: { file_path: join(sandbox.project, "notes.md"), content: "notes\n" } },
    { tool: "Write", input: { file_path: memoryIndex, content: "- [Notes](notes.md) — where the notes are\n" } },
    { tool: "Edit", input: { file_path: memoryIndex, old_string: "where the notes", new_string: "what the notes" } },
    { tool: "Bash", input: { command: "echo a" } },
    { tool: "Bash", input: { command: "echo b" }, input_tokens: AUTO_COMPACT_INPUT_TOKENS },
    { text: "finished" },
  ];
  const sessionId = expectSuccess(
    await runPrint(box, `work on it ${mockScript(steps)}`, { env: autoCompactEnv, args: ["--debug-file", debugFile] }),
  );
  const expected = registeredCommands(readFileSync(sandbox.settingsPath, "utf8"), bin);
  expect(expected.map(({ registration }) => registration.event).sort()).toEqual([
    "PostCompact",
    "PostToolUse",
    "PostToolUse",
    "PreCompact",
    "SessionStart",
    "SessionStart",
    "UserPromptSubmit",
    "UserPromptSubmit",
  ]);
  const runs = hookRuns(debugFile);
  const missing = expected.filter(({ command, registration }) => !ran(runs, command, registration));
  expect(missing, "registrations Claude Code did not run with status 0").toEqual([]);
  const log = join(sandbox.claudeDir, "carryover/log/carryover.log");
  expect(existsSync(log) ? readFileSync(log, "utf8") : "", "carryover's log").toBe("");
  expectCompactionCarried(sandbox, sessionId);
  expectTextInRequest(sandbox.mock.mainRequests()[0], "compact-prep");
  // The status line, chained to the user's: both in the real TUI.
  const tui = await startTui(box);
  await tui.waitForScreen(/MINE[\s\S]*ctx |ctx [\s\S]*MINE/);
  await tui.stop();

  npx(older.cli, ["config", "levels", "50,80"]);
  const config = readFileSync(join(sandbox.claudeDir, "carryover/config.json"), "utf8");
  const settings = readFileSync(sandbox.settingsPath, "utf8");
  const postCompactBefore = sha256(join(bin, "carryover-post-compact"));
  const recoveryBefore = sha256(join(bin, "carryover-recovery"));

  const upgraded = npx(newer.cli, ["install", "--recommended"]);
  expect(upgraded).toContain(`post-compact ${newer.versions.get("@carryover/hook-post-compact")}`);
  const listed = JSON.parse(npx(newer.cli, ["list", "--json"])) as {
    hooks: Array<{ name: string; version: string; installedVersion: string | null }>;
  };
  expect(listed.hooks.find((hook) => hook.name === "post-compact")).toMatchObject({
    version: newer.versions.get("@carryover/hook-post-compact"),
    installedVersion: newer.versions.get("@carryover/hook-post-compact"),
  });
  expect(sha256(join(bin, "carryover-post-compact"))).not.toBe(postCompactBefore);
  expect(sha256(join(bin, "carryover-recovery"))).toBe(recoveryBefore);
  expect(readFileSync(sandbox.settingsPath, "utf8")).toBe(settings);
  expect(readFileSync(join(sandbox.claudeDir, "carryover/config.json"), "utf8")).toBe(config);
  npx(newer.cli, ["doctor"]);

  npx(newer.cli, ["uninstall", "--all"]);
  expect(readFileSync(sandbox.settingsPath, "utf8")).toBe(before);
});

// As the hooks' READMEs say: `npm install -g` each package, then register its bin, on PATH, with the event.
it("npm i -g of the hooks' packages puts their bins on PATH; registered by hand they fire in Claude Code", async () => {
  sandbox = await createSandbox();
  const prefix = join(sandbox.root, "global");
  const packages = [...newer.versions]
    .filter(([name]) => name !== "carryover")
    .map(([name, version]) => `${name}@${version}`);
  const npmUser = npmEnv(sandbox.env, registry, join(sandbox.root, "npm-cache"));
  run("npm", ["install", "--global", "--prefix", prefix, ...packages], { cwd: sandbox.root, env: npmUser });
  const env = { ...sandbox.env, PATH: `${join(prefix, "bin")}:${sandbox.env.PATH}` };
  const byHand = (command: string, timeout: number) => ({ hooks: [{ type: "command", command, timeout }] });
  sandbox.writeSettings({
    hooks: {
      PostCompact: [byHand("carryover-post-compact PostCompact", 10)],
      SessionStart: [{ matcher: "compact", ...byHand("carryover-recovery SessionStart", 30) }],
      UserPromptSubmit: [byHand("carryover-recovery UserPromptSubmit", 30)],
    },
  });
  const sessionId = expectSuccess(await runAutoCompactInLoop({ ...sandbox, env }));
  expectCompactionCarried(sandbox, sessionId);
  const stateBin = join(prefix, "bin", "carryover-state");
  const state = spawnSync(stateBin, ["session-id", "--session", sessionId], { env, encoding: "utf8" });
  expect(state).toMatchObject({ status: 0, stdout: `${sessionId}\n` });
});

// `claude plugin marketplace add <checkout>` with npm's registry the local one: what `<owner>/<repo>` will do.
it("the repo's marketplace: plugins installed from their npm packages fire in the real Claude Code", async () => {
  sandbox = await createSandbox();
  const env = npmEnv(sandbox.env, registry, join(sandbox.root, "npm-cache"));
  const claude = (args: string[]) => run(claudeBin(), args, { cwd: sandbox!.project, env });
  // The real CLI's own check of the file: no unknown field, nothing it would ignore.
  expect(claude(["plugin", "validate", checkout])).toMatch(/^✔ Validation passed$/m);
  expect(claude(["plugin", "marketplace", "add", checkout])).toMatch(/Successfully added marketplace: carryover/);
  for (const plugin of ["post-compact", "recovery", "compact-prep"]) {
    expect(claude(["plugin", "install", `${plugin}@carryover`])).toMatch(
      new RegExp(`Successfully installed plugin: ${plugin}@carryover`),
    );
  }
  const installs = JSON.parse(readFileSync(join(sandbox.claudeDir, "plugins/installed_plugins.json"), "utf8")) as {
    plugins: Record<string, Array<{ installPath: string; version: string }>>;
  };
  const postCompact = installs.plugins["post-compact@carryover"]![0]!;
  expect(postCompact.version).toBe(newer.versions.get("@carryover/hook-post-compact"));
  expect(JSON.parse(readFileSync(join(postCompact.installPath, "package.json"), "utf8")).name).toBe(
    "@carryover/hook-post-compact",
  );
  // carryover sees the plugin, so it will not install the same hook a second time; the statusline plugin runs
  // nothing (plugins cannot set the status line), so carryover installs the status line beside it.
  expect(claude(["plugin", "install", "statusline@carryover"])).toMatch(/Successfully installed plugin/);
  const npx = (args: string[]) => run("npx", [`carryover@${newer.cli}`, ...args], { cwd: sandbox!.project, env });
  npx(["install", "statusline"]);
  const listed = npx(["list"]);
  expect(listed).toMatch(/^post-compact .* installed: plugin post-compact@carryover \(user\)$/m);
  expect(listed).toMatch(/^statusline .* installed: user$/m);

  const debugFile = join(sandbox.root, "claude-debug.txt");
  const sessionId = expectSuccess(
    await runAutoCompactInLoop({ ...sandbox, env }, { args: ["--debug-file", debugFile] }),
  );
  expect(readFileSync(debugFile, "utf8")).toContain(
    `PostCompact:auto [/bin/sh ${PLUGIN_POST_COMPACT} PostCompact] completed with status 0`,
  );
  expectCompactionCarried(sandbox, sessionId);
  // The skill plugin: listed to the model, and its state CLI runs from the plugin's skill dir.
  expectTextInRequest(sandbox.mock.mainRequests()[0], "compact-prep:compact-prep");
  const skillDir = join(installs.plugins["compact-prep@carryover"]![0]!.installPath, "skill");
  const state = spawnSync(join(skillDir, "carryover-state"), ["session-id", "--session", sessionId], {
    env,
    encoding: "utf8",
  });
  expect(state).toMatchObject({ status: 0, stdout: `${sessionId}\n` });
});

it("a plugin from the marketplace updates to the next release: marketplace update, then plugin update", async () => {
  sandbox = await createSandbox();
  const env = npmEnv(sandbox.env, registry, join(sandbox.root, "npm-cache"));
  const claude = (args: string[]) => run(claudeBin(), args, { cwd: sandbox!.project, env });
  const market = join(sandbox.root, "market");
  mkdirSync(join(market, ".claude-plugin"), { recursive: true });
  writeFileSync(join(market, ".claude-plugin/marketplace.json"), olderMarketplace);
  claude(["plugin", "marketplace", "add", market]);
  claude(["plugin", "install", "post-compact@carryover"]);
  const installed = () => {
    const installs = JSON.parse(readFileSync(join(sandbox!.claudeDir, "plugins/installed_plugins.json"), "utf8"));
    const [install] = installs.plugins["post-compact@carryover"] as Array<{ installPath: string; version: string }>;
    return {
      version: install!.version,
      packaged: JSON.parse(readFileSync(join(install!.installPath, "package.json"), "utf8")).version,
    };
  };
  const olderVersion = older.versions.get("@carryover/hook-post-compact");
  expect(installed()).toEqual({ version: olderVersion, packaged: olderVersion });

  copyFileSync(join(checkout, ".claude-plugin/marketplace.json"), join(market, ".claude-plugin/marketplace.json"));
  claude(["plugin", "marketplace", "update", "carryover"]);
  claude(["plugin", "update", "post-compact@carryover"]);
  const newerVersion = newer.versions.get("@carryover/hook-post-compact");
  expect(installed()).toEqual({ version: newerVersion, packaged: newerVersion });
});
