import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compactStatePath } from "@carryover/core";
import {
  compactionRequest,
  createSandbox,
  expectSuccess,
  mockScript,
  projectSlug,
  requestText,
  runAutoCompactInLoop,
  runCompact,
  runPrint,
  type Sandbox,
} from "@carryover/test-fixtures/e2e";
import { afterEach, expect, it } from "vitest";

const PRE_COMPACT = join(import.meta.dirname, "../dist/carryover-pre-compact.cjs");
const POST_COMPACT = join(import.meta.dirname, "../../hook-post-compact/dist/carryover-post-compact.cjs");
const INSTRUCTIONS = "carryover pre-compact: what the summary of this compaction";
const USER_MEMORY_LINE = "- [Build](build.md) — pnpm build, then pnpm test";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

/** Write, Edit, a Bash that fails (the file is missing), the fix, and the same Bash passing. */
function workTurn(project: string): string {
  return `Add the answer module and fix the notes ${mockScript([
    { tool: "Write", input: { file_path: join(project, "src/app.ts"), content: "export const answer = 42;\n" } },
    { tool: "Edit", input: { file_path: join(project, "notes.txt"), old_string: "world", new_string: "there" } },
    { tool: "Bash", input: { command: "cat build.txt" } },
    { tool: "Bash", input: { command: "touch build.txt" } },
    { tool: "Bash", input: { command: "cat build.txt" } },
    { text: "done" },
  ])}`;
}

it("manual then auto compaction on the real CLI: changes log, snapshot, memory entry, steering", async () => {
  sandbox = await createSandbox({
    settings: {
      hooks: {
        PreCompact: [{ hooks: [{ type: "command", command: PRE_COMPACT, timeout: 60 }] }],
        PostCompact: [{ hooks: [{ type: "command", command: POST_COMPACT, timeout: 10 }] }],
      },
    },
    files: { "notes.txt": "hello\nworld\n" },
  });
  const { project } = sandbox;
  const memoryDir = join(sandbox.claudeDir, "projects", projectSlug(project), "memory");
  mkdirSync(memoryDir, { recursive: true });
  writeFileSync(join(memoryDir, "MEMORY.md"), `${USER_MEMORY_LINE}\n`);
  const sessionId = expectSuccess(await runPrint(sandbox, workTurn(project)));

  expectSuccess(await runCompact(sandbox, sessionId, "keep the decisions"));
  const first = requestText(compactionRequest(sandbox.mock.requests(), 0));
  expect(first).toContain(INSTRUCTIONS);
  expect(first).toContain(
    'The summary begins with a section "Historical summaries" holding "none yet": ' +
      "the session's transcript has no earlier compaction.",
  );

  const log = readFileSync(join(project, "CHANGES_SESSION.md"), "utf8");
  expect(log).toMatch(/^## .* · manual compaction · session /m);
  expect(log).toContain("### Files modified (2)\n- `src/app.ts` — Write\n- `notes.txt` — Edit\n");
  expect(log).toContain("- `cat build.txt` — failed 1 of 2 runs, then passed\n- `touch build.txt`\n");
  expect(log).toContain(
    "- Bash `cat build.txt`: Exit code 1 cat: build.txt: No such file or directory → " +
      "fixed: the same command succeeded later",
  );

  const sessionDir = join(sandbox.home, ".claude/carryover/sessions", sessionId);
  expect(readFileSync(join(sessionDir, "snapshot.md"), "utf8")).toContain("<!-- carryover: mechanical snapshot -->");
  expect(existsSync(compactStatePath(sandbox.env, sessionId))).toBe(false);

  const run = await runAutoCompactInLoop(sandbox, { resume: sessionId });
  expectSuccess(run);
  const second = requestText(compactionRequest(sandbox.mock.requests(), 1));
  expect(second).toContain(INSTRUCTIONS);
  const quotedFirst = new RegExp(
    String.raw`<earlier-summaries>\n\[1\] manual compaction, [\d-]+ [\d:]+ UTC:\n` +
      String.raw`MOCK SUMMARY \d+: the user asked for things; files were edited\.\n<\/earlier-summaries>`,
  );
  expect(second).toMatch(quotedFirst);

  const sections = readFileSync(join(project, "CHANGES_SESSION.md"), "utf8").split(/^## /m).slice(1);
  expect(sections.map((section) => section.split("\n")[0]!.split(" · ")[1])).toEqual([
    "manual compaction",
    "auto compaction",
  ]);
  expect(sections[1]).toContain("- `echo a`\n- `echo b`\n- `echo c`\n");
  expect(sections[1]).not.toContain("src/app.ts");

  const index = readFileSync(join(memoryDir, "MEMORY.md"), "utf8").trimEnd().split("\n");
  expect(index[0]).toBe(USER_MEMORY_LINE);
  expect(index).toHaveLength(2);
  const topics = readdirSync(memoryDir).filter((name) => name.startsWith("carryover-session-"));
  expect(topics).toHaveLength(1);
  expect(index[1]).toContain("](carryover-sessions.md)");
  expect(readFileSync(join(memoryDir, "carryover-sessions.md"), "utf8")).toContain(`](${topics[0]})`);
  const topic = readFileSync(join(memoryDir, topics[0]!), "utf8");
  expect(topic.match(/^## .* compaction$/gm)).toHaveLength(2);
  expect(topic).toContain("- Task: Add the answer module and fix the notes");
  expect(sandbox.mock.errors()).toEqual([]);
});
