// #17.3: the auto-memory dir is the one Claude Code loads. Observed on 2.1.332 (print mode, which MEMORY.md the
// first request quotes as "Contents of <dir>/MEMORY.md"):
// - in a git worktree (beside the repository or inside it, in a subdirectory of it too) it loads the main
//   repository's `projects/<slug of the main repo>/memory/`, not the worktree's;
// - `autoMemoryDirectory` moves it: `~/x` is HOME/x (HOME, also under CLAUDE_CONFIG_DIR); a relative path, `~`
//   alone or `~/..` is ignored; the first of .claude/settings.local.json, .claude/settings.json and the user's
//   settings.json that sets it wins (the project's own settings were honoured here, the folder being trusted);
// - CLAUDE_CONFIG_DIR moves `projects/` (and settings.json) from ~/.claude to that dir.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  createSandbox,
  expectSuccess,
  mockScript,
  projectSlug,
  requestText,
  runCompact,
  runPrint,
  type Sandbox,
} from "../../../test-fixtures/e2e/index.ts";
import { recordFigures } from "../figures.ts";
import { carryoverHooks, hookHandler } from "./_field.ts";

const OVERFULL = Array.from({ length: 300 }, (_, i) => `- [Note ${i + 1}](note-${i + 1}.md) — a fact`).join("\n");

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

function inDir(s: Sandbox, cwd: string, env: Record<string, string> = {}): Sandbox {
  return { ...s, project: cwd, env: { ...s.env, ...env } };
}

/** The MEMORY.md the first request of a new session in `cwd` quotes: its path and content, or null. */
async function loadedMemory(s: Sandbox): Promise<{ path: string; content: string } | null> {
  const before = s.mock.mainRequests().length;
  expectSuccess(await runPrint(s, "hello"));
  const text = requestText(s.mock.mainRequests()[before]!);
  const match = /Contents of (\S+)\/MEMORY\.md \(user's auto-memory[^\n]*\n\n([\s\S]*?)(?:<\/system-reminder>|$)/.exec(
    text,
  );
  return match ? { path: match[1]!, content: match[2]! } : null;
}

/** One turn and a manual /compact in `s.project`: pre-compact files its memory entry then. */
async function compactOnce(s: Sandbox): Promise<void> {
  const first = await runPrint(
    s,
    `fix the parser ${mockScript([{ tool: "Bash", input: { command: "echo work" } }, { text: "done" }])}`,
  );
  expectSuccess(await runCompact(s, expectSuccess(first)));
}

/** What memory-guard told the user at startup in `s.project` (stream-json's hook_response), or "". */
async function guardAtStartup(s: Sandbox): Promise<string> {
  const run = await runPrint(s, "hello", { outputFormat: "stream-json" });
  expectSuccess(run);
  const response = run.events.find(
    (event) => event.subtype === "hook_response" && event.hook_name === "SessionStart:startup",
  );
  const output = String(response?.output ?? "").trim();
  return output ? String((JSON.parse(output) as { systemMessage?: string }).systemMessage ?? "") : "";
}

const carryoverLine = (content: string) => content.split("\n").find((line) => line.includes("](carryover-"));

describe("in a git worktree", () => {
  async function worktree(): Promise<{ s: Sandbox; tree: string; mainMemory: string }> {
    sandbox = await createSandbox({
      settings: {
        hooks: {
          ...carryoverHooks("pre-compact"),
          SessionStart: [{ hooks: [hookHandler("memory-guard", "SessionStart")] }],
        },
      },
    });
    const s = sandbox;
    const tree = join(s.root, "feature-tree");
    execFileSync("git", ["worktree", "add", "-q", "-b", "feature", tree], {
      cwd: s.project,
      env: s.env,
      stdio: "pipe",
    });
    return { s, tree, mainMemory: join(s.claudeDir, "projects", projectSlug(s.project), "memory") };
  }

  test("pre-compact's memory entry goes to the main repository's memory, which the next session loads", async () => {
    const { s, tree, mainMemory } = await worktree();
    await compactOnce(inDir(s, tree));
    const loaded = await loadedMemory(inDir(s, tree));
    expect(loaded?.path).toBe(mainMemory);
    expect(carryoverLine(loaded?.content ?? "")).toBeDefined();
  });

  test("memory-guard measures that MEMORY.md: 300 lines are not left unsaid", async () => {
    const { s, tree, mainMemory } = await worktree();
    mkdirSync(mainMemory, { recursive: true });
    writeFileSync(join(mainMemory, "MEMORY.md"), `${OVERFULL}\n`);
    expect((await loadedMemory(inDir(s, tree)))?.path).toBe(mainMemory);
    expect(await guardAtStartup(inDir(s, tree))).toMatch(
      /^MEMORY\.md is over what Claude Code loads \(300 of 200 lines/,
    );
  });
});

describe("autoMemoryDirectory and CLAUDE_CONFIG_DIR", () => {
  const hooks = () => ({
    ...carryoverHooks("pre-compact"),
    SessionStart: [{ hooks: [hookHandler("memory-guard", "SessionStart")] }],
  });

  test("autoMemoryDirectory `~/…` in the user's settings: the entry and the measurement follow it", async () => {
    sandbox = await createSandbox({ settings: { autoMemoryDirectory: "~/notes/memory", hooks: hooks() } });
    const s = sandbox;
    const dir = join(s.home, "notes", "memory");
    await compactOnce(s);
    const loaded = await loadedMemory(s);
    expect(loaded?.path).toBe(dir);
    expect(carryoverLine(loaded?.content ?? "")).toBeDefined();

    writeFileSync(join(dir, "MEMORY.md"), `${OVERFULL}\n`);
    expect(await guardAtStartup(s)).toContain(`not loaded into any session: ${join(dir, "MEMORY.md")}`);
  });

  test("CLAUDE_CONFIG_DIR moves the memory dir with the rest; `~/` there is still HOME", async () => {
    sandbox = await createSandbox();
    const s = sandbox;
    const config = join(s.root, "config");
    mkdirSync(config);
    execFileSync("cp", [join(s.home, ".claude.json"), join(config, ".claude.json")]);
    const moved = inDir(s, s.project, { CLAUDE_CONFIG_DIR: config });
    writeFileSync(join(config, "settings.json"), JSON.stringify({ hooks: hooks() }));
    await compactOnce(moved);
    const loaded = await loadedMemory(moved);
    expect(loaded?.path).toBe(join(config, "projects", projectSlug(s.project), "memory"));
    expect(carryoverLine(loaded?.content ?? "")).toBeDefined();

    writeFileSync(
      join(config, "settings.json"),
      JSON.stringify({ autoMemoryDirectory: "~/notes/memory", hooks: hooks() }),
    );
    await compactOnce(moved);
    const home = await loadedMemory(moved);
    expect(home?.path).toBe(join(s.home, "notes", "memory"));
    expect(carryoverLine(home?.content ?? "")).toBeDefined();
    recordFigures("field-memory-dir", {
      worktree: "main repository's",
      autoMemoryDirectory: "~/ is HOME",
      claudeConfigDir: "moves projects/",
    });
  });
});
