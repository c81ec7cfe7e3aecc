import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  createSandbox,
  expectSuccess,
  mockScript,
  projectSlug,
  runPrint,
  type Sandbox,
} from "@carryover/test-fixtures/e2e";
import { afterEach, expect, it } from "vitest";
import type { ContextReport } from "../src/model.ts";

const CLI = join(import.meta.dirname, "../../../apps/cli/dist/carryover.cjs");
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

it("on the real CLI, a subagent's work is read from its own transcript and counted as the session's", async () => {
  sandbox = await createSandbox({});
  const box = sandbox;
  // The subagent's prompt names its script: it writes a file, runs a failing command, then one that passes.
  box.mock.scriptFor("SUBAGENT-WORK", [
    { tool: "Write", input: { file_path: join(box.project, "from-subagent.txt"), content: "sub\n" } },
    { tool: "Bash", input: { command: "ls missing-dir" } },
    { tool: "Bash", input: { command: "mkdir missing-dir && ls missing-dir" } },
    { text: "subagent done" },
  ]);
  const delegate = mockScript([
    {
      tool: "Agent",
      input: { description: "write the file", prompt: "SUBAGENT-WORK please", subagent_type: "general-purpose" },
    },
    { text: "delegated" },
  ]);
  const run = await runPrint(box, `delegate it ${delegate}`, { allowedTools: ["Bash", "Write", "Read", "Agent"] });
  const sessionId = expectSuccess(run);
  // Claude Code 2.1.332 keeps it beside the session's transcript: <session>/subagents/agent-<id>.jsonl.
  const subagents = join(box.claudeDir, "projects", projectSlug(box.project), sessionId, "subagents");
  expect(
    existsSync(subagents) ? readdirSync(subagents).filter((name) => /^agent-.+\.jsonl$/.test(name)) : [],
  ).toHaveLength(1);

  const result = spawnSync(process.execPath, [CLI, "context", sessionId, "--json"], {
    cwd: box.project,
    env: box.env,
    encoding: "utf8",
  });
  expect(result.status, result.stderr).toBe(0);
  const { work } = JSON.parse(result.stdout) as ContextReport;
  expect(work.filesChanged).toEqual([{ path: join(box.project, "from-subagent.txt"), count: 1 }]);
  expect(work.commands).toEqual([
    { command: "ls missing-dir", runs: 1, failures: 1 },
    { command: "mkdir missing-dir && ls missing-dir", runs: 1, failures: 0 },
  ]);
  expect(work.errors).toMatchObject([{ tool: "Bash", target: "ls missing-dir", resolved: true }]);
  expect(work.lastRequest).toMatch(/^delegate it MOCKSCRIPT/);
});
