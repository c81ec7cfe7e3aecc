import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createSandbox,
  expectSuccess,
  mockScript,
  projectSlug,
  requestText,
  runPrint,
  type Sandbox,
} from "@carryover/test-fixtures/e2e";
import { afterEach, expect, it } from "vitest";

const GUARD = join(import.meta.dirname, "../dist/carryover-memory-guard.cjs");
const REGISTRATIONS: Array<{ event: string; matcher?: string; if?: string; timeout: number }> = JSON.parse(
  readFileSync(join(import.meta.dirname, "../package.json"), "utf8"),
).carryover.registrations;

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

it("on the real CLI the user is told at startup and after the agent's write; the agent is told nothing", async () => {
  const hook = { type: "command", command: GUARD, timeout: 10 };
  sandbox = await createSandbox({
    settings: {
      hooks: {
        SessionStart: [{ matcher: "startup|resume|compact", hooks: [hook] }],
        PostToolUse: [{ matcher: "Write|Edit|MultiEdit", hooks: [hook] }],
      },
    },
  });
  const memoryDir = join(sandbox.claudeDir, "projects", projectSlug(sandbox.project), "memory");
  mkdirSync(memoryDir, { recursive: true });
  const entries = Array.from({ length: 168 }, (_, i) => `- [Note ${i + 1}](note-${i + 1}.md) — fact`);
  writeFileSync(join(memoryDir, "MEMORY.md"), `${entries.join("\n")}\n`);

  const grown = [...entries, ...Array.from({ length: 34 }, (_, i) => `- [New ${i + 1}](new-${i + 1}.md) — fact`)];
  const write = { tool: "Write", input: { file_path: join(memoryDir, "MEMORY.md"), content: `${grown.join("\n")}\n` } };
  const run = await runPrint(sandbox, `remember these ${mockScript([write, { text: "saved" }])}`, {
    outputFormat: "stream-json",
  });
  expectSuccess(run);

  const startup = run.events.find(
    (event) => event.subtype === "hook_response" && event.hook_name === "SessionStart:startup",
  );
  expect(JSON.parse(String(startup?.output)).systemMessage).toMatch(
    /^MEMORY\.md is at 84% of what Claude Code loads \(168 of 200 lines/,
  );
  const afterWrite = run.events.find(
    (event) =>
      event.subtype === "informational" && String(event.content).startsWith("PostToolUse:Write says: MEMORY.md"),
  );
  expect(afterWrite?.content).toContain("lines 201–202 are not loaded into any session");
  expect(afterWrite?.content).toContain("PostToolUse:Write says:   201: - [New 33](new-33.md) — fact");

  for (const request of sandbox.mock.mainRequests())
    expect(requestText(request)).not.toContain("of what Claude Code loads");
});

it("with its package.json's `if`, Claude Code starts it after writes to MEMORY.md only; it warns", async () => {
  sandbox = await createSandbox();
  // The layout the installer makes: the executable with a `node` beside it, which its sh prelude starts. This
  // one notes each start, so a start Claude Code skipped for the handler's `if` is visible.
  const binDir = join(sandbox.root, "bin");
  const starts = join(sandbox.logDir, "node-starts.txt");
  mkdirSync(binDir);
  copyFileSync(GUARD, join(binDir, "carryover-memory-guard"));
  const node = join(binDir, "node");
  writeFileSync(node, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${starts}'\nexec '${process.execPath}' "$@"\n`);
  chmodSync(node, 0o755);
  const hooks: Record<string, unknown[]> = {};
  for (const { event, matcher, if: condition, timeout } of REGISTRATIONS) {
    const handler = { type: "command", command: "/bin/sh", args: [join(binDir, "carryover-memory-guard"), event] };
    hooks[event] = [
      ...(hooks[event] ?? []),
      { matcher, hooks: [{ ...handler, ...(condition ? { if: condition } : {}), timeout }] },
    ];
  }
  sandbox.writeSettings({ hooks });

  const memoryIndex = join(sandbox.claudeDir, "projects", projectSlug(sandbox.project), "memory", "MEMORY.md");
  mkdirSync(join(memoryIndex, ".."), { recursive: true });
  const entries = Array.from({ length: 200 }, (_, i) => `- [Note ${i + 1}](note-${i + 1}.md) — fact`);
  writeFileSync(memoryIndex, `${entries.slice(0, 168).join("\n")}\n`);
  const notes = join(sandbox.project, "notes.md");
  const steps = [
    { tool: "Write", input: { file_path: notes, content: "- one\n" } },
    { tool: "Edit", input: { file_path: notes, old_string: "- one", new_string: "- two" } },
    { tool: "Write", input: { file_path: memoryIndex, content: `${entries.slice(0, 190).join("\n")}\n` } },
    {
      tool: "Edit",
      input: { file_path: memoryIndex, old_string: entries[189], new_string: `${entries[189]}\n${entries[190]}` },
    },
    { text: "saved" },
  ];
  const run = await runPrint(sandbox, `note it ${mockScript(steps)}`, { outputFormat: "stream-json" });
  expectSuccess(run);

  expect(readFileSync(notes, "utf8")).toBe("- two\n");
  const events = readFileSync(starts, "utf8")
    .trim()
    .split("\n")
    .map((line) => line.split(" ").at(-1));
  expect(events).toEqual(["SessionStart", "PostToolUse", "PostToolUse"]);
  const warnings = run.events
    .filter((event) => event.subtype === "informational")
    .map((event) =>
      String(event.content)
        .match(/^PostToolUse:(\w+) says: MEMORY\.md is at \d+% .*?\((\d+) of 200 lines/)
        ?.slice(1),
    );
  expect(warnings).toEqual([
    ["Write", "190"],
    ["Edit", "191"],
  ]);
  expect(existsSync(join(sandbox.claudeDir, "carryover/log/carryover.log"))).toBe(false);
});
