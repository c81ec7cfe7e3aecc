import { mkdirSync, writeFileSync } from "node:fs";
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
