import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import {
  createSandbox,
  expectNoTextInRequest,
  expectSuccess,
  expectTextInRequest,
  hasTmux,
  mockScript,
  runCompact,
  runPrint,
  type Sandbox,
  startTui,
} from "@carryover/test-fixtures/e2e";
import { afterEach, beforeAll, expect, it } from "vitest";
import { CLI, carryover } from "./cli-run.ts";

// The field's two ways to lose every hook (#18): a NODE_OPTIONS Claude Code passes on, and a Node that is gone.

let sandbox: Sandbox | undefined;
beforeAll(() => {
  if (!hasTmux()) throw new Error("tmux is not installed: the TUI e2e tests need it (apt-get install -y tmux)");
});
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

/** Each carryover hook run in Claude Code 2.1.332's --debug-file: the command and its exit status. */
function carryoverRuns(debugFile: string): Array<{ command: string; status: number }> {
  const text = readFileSync(debugFile, "utf8");
  return [...text.matchAll(/\[DEBUG\] (?:Hooks: )?\w+(?::\S+)? \[(.+?)\] (?:completed|finished) with status (\d+)/gm)]
    .map((match) => ({ command: match[1]!, status: Number(match[2]) }))
    .filter((run) => run.command.includes("/carryover/bin/"));
}

/** Everything the model was sent, as text: a hook's failure report would be in it (manual /compact's). */
const sentText = (box: Sandbox) => JSON.stringify(box.mock.requests());

/** Manual /compact's report of each compaction hook, as the model gets it: `<Event> [<command>] <outcome>`. */
function compactReports(box: Sandbox): string[] {
  return [
    ...sentText(box).matchAll(/(?:Pre|Post)Compact \[[^\]]*carryover[^\]]*\] (?:completed successfully|failed)/g),
  ].map((m) => m[0]);
}

/** A prompt, a tool call, a manual /compact (whose hook reports reach the model) and a prompt after it. */
async function session(box: Sandbox, env: Record<string, string>, debugFile: string): Promise<void> {
  const steps = [
    { tool: "Write", input: { file_path: join(box.project, "notes.md"), content: "notes\n" } },
    { text: "done" },
  ];
  const options = { env, args: ["--debug-file", debugFile] };
  const sessionId = expectSuccess(await runPrint(box, `work ${mockScript(steps)}`, options));
  expectSuccess(await runCompact(box, sessionId, "keep the decisions", options));
  // The next request carries /compact's report of its hooks.
  expectSuccess(await runPrint(box, "go on", { ...options, resume: sessionId }));
}

it("with NODE_OPTIONS=--require /gone.cjs every hook runs: nothing fails, nothing reaches the model", async () => {
  sandbox = await createSandbox();
  carryover(sandbox, ["install", "--all"]);
  const env = { NODE_OPTIONS: "--require /gone.cjs", NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt" };
  const debugFile = join(sandbox.root, "claude-debug.txt");
  await session(sandbox, env, debugFile);

  const runs = carryoverRuns(debugFile);
  expect(runs.length).toBeGreaterThanOrEqual(5);
  expect(runs.filter((run) => run.status !== 0)).toEqual([]);
  expect(sentText(sandbox)).not.toMatch(/Cannot find module|gone\.cjs/);
  const reports = compactReports(sandbox);
  expect(reports.length).toBeGreaterThanOrEqual(2);
  expect(reports.filter((report) => !report.endsWith("completed successfully"))).toEqual([]);
  const log = join(sandbox.claudeDir, "carryover/log/carryover.log");
  expect(existsSync(log) ? readFileSync(log, "utf8") : "").toBe("");

  const tui = await startTui(sandbox, { env });
  await tui.waitForScreen(/ctx – · – of 967k to auto-compact/);
  // doctor itself is a Node program, which that NODE_OPTIONS would stop before it starts: the CA bundle, then.
  const doctorEnv = { ...sandbox.env, NODE_EXTRA_CA_CERTS: env.NODE_EXTRA_CA_CERTS };
  const doctor = spawnSync(process.execPath, [CLI, "doctor"], {
    cwd: sandbox.project,
    env: doctorEnv,
    encoding: "utf8",
  });
  expect(doctor.stdout).toContain("✔ NODE_EXTRA_CA_CERTS is set; the hooks start Node without it");
});

// No node on Claude Code's PATH and the linked one gone.
it("without a node, hooks pass silently, the status line says so and doctor explains", async () => {
  sandbox = await createSandbox();
  const installed = carryover(sandbox, ["install", "--all"]);
  expect(installed).toMatch(/hooks run with node v\d+\.\d+\.\d+: .*, the first node on your PATH, linked as /);
  expect(installed).toContain(", the first node on your PATH, linked as ~/.claude/carryover/bin/node\n");
  // An nvm uninstall of the Node install linked.
  const link = join(sandbox.claudeDir, "carryover/bin/node");
  const gone = join(sandbox.root, "nvm/versions/node/v24.1.0/bin/node");
  rmSync(link);
  symlinkSync(gone, link);
  // Claude Code started from a desktop launcher: a PATH with the usual tools and no node.
  const tools = join(sandbox.root, "no-node-bin");
  mkdirSync(tools);
  for (const tool of ["git", "date", "wc", "cat", "ls", "env", "tmux", "uname"]) {
    for (const dir of ["/usr/bin", "/bin"]) {
      if (existsSync(join(dir, tool))) {
        symlinkSync(join(dir, tool), join(tools, tool));
        break;
      }
    }
  }
  const env = { PATH: tools };
  const debugFile = join(sandbox.root, "claude-debug.txt");
  await session(sandbox, env, debugFile);

  const runs = carryoverRuns(debugFile);
  expect(runs.length).toBeGreaterThanOrEqual(5);
  expect(runs.filter((run) => run.status !== 0)).toEqual([]);
  expect(sentText(sandbox)).not.toMatch(/Executable not found|node: not found|no node found/);
  const reports = compactReports(sandbox);
  expect(reports.length).toBeGreaterThanOrEqual(2);
  expect(reports.filter((report) => !report.endsWith("completed successfully"))).toEqual([]);
  const lines = readFileSync(join(sandbox.claudeDir, "carryover/log/carryover.log"), "utf8").trim().split("\n");
  // One line per hook that needed Node, however often it ran: a prompt whose nothing-to-do the sh probe decides
  // needs none.
  const hookOf = (command: string) => /\/bin\/carryover-([a-z-]+)/.exec(command)?.[1];
  const probed = (command: string) => /carryover-(?:recovery|pin|prep-reminder)\S* UserPromptSubmit/.test(command);
  const logged = lines.map((line) => / ([a-z-]+): no node found/.exec(line)?.[1]);
  expect(new Set(logged).size).toBe(logged.length);
  expect(runs.length).toBeGreaterThan(new Set(runs.map((run) => hookOf(run.command))).size);
  for (const run of runs.filter((run) => !probed(run.command))) expect(logged).toContain(hookOf(run.command));
  for (const hook of logged) expect(runs.map((run) => hookOf(run.command))).toContain(hook);
  for (const line of lines) {
    expect(line).toMatch(
      new RegExp(
        String.raw`^\d{4}-\d\d-\d\dT[\d:]{8}Z [a-z-]+: ` +
          String.raw`no node found \(.*/carryover/bin/node, PATH=.*no-node-bin\); see carryover doctor$`,
      ),
    );
  }

  const tui = await startTui(sandbox, { env });
  await tui.waitForScreen(/carryover: no node found - run carryover doctor/);
  await tui.stop();

  const doctor = spawnSync(process.execPath, [CLI, "doctor"], {
    cwd: sandbox.project,
    env: { ...sandbox.env, ...env },
    encoding: "utf8",
  });
  expect(doctor.status).toBe(1);
  expect(doctor.stdout).toContain(
    `✖ the Node linked for the hooks (${gone}) is gone and PATH has no node 22+: ` +
      "every hook does nothing, one line each in ~/.claude/carryover/log/carryover.log",
  );
  expect(doctor.stdout).toContain(
    "fix: install Node.js 22+ where Claude Code finds it, then run carryover install again: it links that one",
  );
});

// A dotfiles repo or a JS project in HOME: a package.json with "type":"module" above the installed executables, which
// have no extension, makes Node load them as ES modules; the bin dir's own package.json keeps them CommonJS.
it('under a HOME whose package.json says "type":"module" the hooks still run, as CommonJS', async () => {
  const rule = "PIN-ESM: the release notes list every breaking change.";
  sandbox = await createSandbox({
    files: {
      "~/package.json": '{"name":"dotfiles","type":"module"}\n',
      "~/.claude/carryover/pinned.md": `${rule}\n`,
      // A pin key set in a config file: pin's sh path leaves the prompt to Node.
      "~/.claude/carryover/config.json": '{"pin":{"maxBytes":8000}}\n',
    },
  });
  carryover(sandbox, ["install", "--all"]);
  const debugFile = join(sandbox.root, "claude-debug.txt");
  await session(sandbox, {}, debugFile);

  const runs = carryoverRuns(debugFile);
  expect(runs.length).toBeGreaterThanOrEqual(5);
  expect(runs.filter((run) => run.status !== 0)).toEqual([]);
  const [first] = sandbox.mock.mainRequests();
  expectTextInRequest(first, rule);
  const log = join(sandbox.claudeDir, "carryover/log/carryover.log");
  expect(existsSync(log) ? readFileSync(log, "utf8") : "").toBe("");

  // Without the bin dir's package.json, Node takes the bundles for ES modules and pin's prompt goes unpinned.
  rmSync(join(sandbox.claudeDir, "carryover/bin/package.json"));
  const before = sandbox.mock.mainRequests().length;
  expectSuccess(await runPrint(sandbox, "one more"));
  const unguarded = sandbox.mock.mainRequests().slice(before);
  expect(unguarded.length).toBeGreaterThan(0);
  for (const request of unguarded) expectNoTextInRequest(request, rule);
});
