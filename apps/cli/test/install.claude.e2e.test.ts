import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  autoCompactEnv,
  createSandbox,
  expectSuccess,
  expectTextInRequest,
  firstMainAfterCompaction,
  hasTmux,
  mockScript,
  probeEvents,
  probeHook,
  projectSlug,
  runCompact,
  runPrint,
  type Sandbox,
  startTui,
} from "@carryover/test-fixtures/e2e";
import { afterEach, expect, it } from "vitest";
import { carryover, shippedRelease } from "./cli-run.ts";
import { hookRuns, ran } from "./hook-runs.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

/** A user's settings as written by hand: inline objects, their own status line, hooks and unrelated keys. */
function userSettings(probeLog: string): string {
  const probe = JSON.stringify(probeHook(probeLog));
  return `{
  "env": {"MY_VAR": "kept"},
  "permissions": {"allow": ["Bash(echo:*)"], "deny": []},
  "statusLine": {"type": "command", "command": "printf 'MY-OWN-STATUS\\\\n'"},
  "hooks": {
    "UserPromptSubmit": [{"hooks": [${probe}]}],
    "Stop": [{"hooks": [${probe}]}]
  },
  "spinnerTipsEnabled": false
}
`;
}

// A HOME with a status line, hooks and other settings; real prompts, then an auto and a manual compaction.
it("install --all: every hook fires; uninstall restores the settings file byte for byte", async () => {
  sandbox = await createSandbox();
  const before = userSettings(sandbox.probeLog);
  writeFileSync(sandbox.settingsPath, before);

  const installed = carryover(sandbox, ["install", "--all"]);
  expect(installed).toContain("chained your status line `printf 'MY-OWN-STATUS\\n'`");
  const settings = JSON.parse(readFileSync(sandbox.settingsPath, "utf8"));
  expect(settings.env).toEqual({ MY_VAR: "kept" });
  expect(settings.spinnerTipsEnabled).toBe(false);
  expect(carryover(sandbox, ["doctor"])).toMatch(/no problems/);

  const debugFile = join(sandbox.root, "claude-debug.txt");
  const options = { env: autoCompactEnv, args: ["--debug-file", debugFile] };
  // memory-guard's PostToolUse registrations have an `if` that only a write to a MEMORY.md meets.
  const memoryIndex = join(sandbox.claudeDir, "projects", projectSlug(sandbox.project), "memory", "MEMORY.md");
  const steps = [
    { tool: "Write", input: { file_path: join(sandbox.project, "notes.md"), content: "notes\n" } },
    { tool: "Write", input: { file_path: memoryIndex, content: "- [Notes](notes.md) — where the notes are\n" } },
    { tool: "Edit", input: { file_path: memoryIndex, old_string: "where the notes", new_string: "what the notes" } },
    { tool: "Bash", input: { command: "echo a" } },
    { tool: "Bash", input: { command: "echo b" }, input_tokens: 70_000 },
    { text: "finished" },
  ];
  const first = await runPrint(sandbox, `work on it ${mockScript(steps)}`, options);
  const sessionId = expectSuccess(first);
  expectSuccess(await runPrint(sandbox, "and now the next step", { ...options, resume: sessionId }));
  expectSuccess(await runCompact(sandbox, sessionId, "keep the decisions", options));
  const runs = hookRuns(debugFile);

  const release = shippedRelease();
  const expected = release.entries.flatMap((entry) =>
    entry.registrations
      .filter((registration) => registration.event !== "statusLine")
      .map((registration) => {
        const executable = join(sandbox!.claudeDir, "carryover/bin", entry.executables[0]!.name);
        return { command: `/bin/sh ${executable} ${registration.event}`, registration };
      }),
  );
  expect(expected.length).toBeGreaterThanOrEqual(6);
  const missing = expected.filter(({ command, registration }) => !ran(runs, command, registration));
  expect(missing, `registrations Claude Code did not run with status 0: ${JSON.stringify(missing)}`).toEqual([]);
  for (const { command, registration } of expected.filter(({ registration }) =>
    /^(Pre|Post)Compact$/.test(registration.event),
  )) {
    const triggers = runs
      .filter((run) => run.command === command && run.event === registration.event && run.status === 0)
      .map((run) => run.source);
    expect(new Set(triggers), `${command} on ${registration.event}`).toEqual(new Set(["auto", "manual"]));
  }
  // Hooks fail open and log what went wrong: none did.
  const log = join(sandbox.claudeDir, "carryover/log/carryover.log");
  expect(existsSync(log) ? readFileSync(log, "utf8") : "").toBe("");

  // Effects: the ledger post-compact keeps, recovery's context in the first request after the compaction,
  // the skill in Claude Code's skill listing, the user's own hooks still running.
  const ledger = readFileSync(join(sandbox.claudeDir, "carryover/sessions", sessionId, "compactions.jsonl"), "utf8");
  expect(
    ledger
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line).trigger),
  ).toEqual(["auto", "manual"]);
  expectTextInRequest(firstMainAfterCompaction(sandbox.mock.requests(), 0), "SessionStart hook additional context:");
  expectTextInRequest(sandbox.mock.mainRequests()[0], "compact-prep");
  expect(probeEvents(sandbox.probeLog).filter((event) => event === "UserPromptSubmit" || event === "Stop")).toEqual([
    "UserPromptSubmit",
    "Stop",
    "UserPromptSubmit",
    "Stop",
  ]);

  expect(carryover(sandbox, ["uninstall", "--all"])).toContain(
    "~/.claude/settings.json: restored to its bytes before carryover",
  );
  expect(readFileSync(sandbox.settingsPath, "utf8")).toBe(before);
  expect(existsSync(join(sandbox.claudeDir, "carryover/bin"))).toBe(false);
  expect(existsSync(join(sandbox.claudeDir, "skills/compact-prep"))).toBe(false);
});

it.skipIf(!hasTmux())(
  "the chained status line: the TUI shows the user's line and carryover's; uninstall gives the slot back",
  async () => {
    sandbox = await createSandbox();
    const before = `{\n  "statusLine": {"type": "command", "command": "printf 'MY-OWN-STATUS\\\\n'"}\n}\n`;
    writeFileSync(sandbox.settingsPath, before);
    carryover(sandbox, ["install", "statusline"]);
    const tui = await startTui(sandbox);
    const screen = await tui.waitForScreen(/MY-OWN-STATUS[\s\S]*ctx |ctx [\s\S]*MY-OWN-STATUS/);
    expect(screen).toMatch(/of \S+ to auto-compact/);
    await tui.stop();
    carryover(sandbox, ["uninstall", "statusline"]);
    expect(readFileSync(sandbox.settingsPath, "utf8")).toBe(before);
  },
);
