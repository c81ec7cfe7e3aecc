import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createSandbox,
  expectSuccess,
  mockScript,
  projectSlug,
  runAutoCompactInLoop,
  runPrint,
  type Sandbox,
} from "@carryover/test-fixtures/e2e";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ContextReport } from "../src/model.ts";

// What a user runs: the built CLI (apps/cli, `pnpm build`).
const CLI = join(import.meta.dirname, "../../../apps/cli/dist/carryover.cjs");
let sandbox: Sandbox;
let sessionId: string;
let report: ContextReport;
let terminal: string;

// One real session: a first turn whose usage the mock is scripted to report (cache reads and writes
// included), then a second turn that auto-compacts inside its tool loop.
beforeAll(async () => {
  sandbox = await createSandbox({
    files: {
      "CLAUDE.md": `# Rules\n${"Keep functions small. ".repeat(40)}\n`,
      "notes.txt": "a line of notes to read\n".repeat(3_000),
    },
  });
  const memoryDir = join(sandbox.home, ".claude", "projects", projectSlug(sandbox.project), "memory");
  mkdirSync(memoryDir, { recursive: true });
  writeFileSync(join(memoryDir, "MEMORY.md"), "- the build uses pnpm\n");
  const mcpConfig = join(sandbox.root, "mcp.json");
  writeFileSync(
    mcpConfig,
    JSON.stringify({
      mcpServers: {
        tracker: { command: process.execPath, args: [join(import.meta.dirname, "fixtures/mcp-server.mjs")] },
      },
    }),
  );
  const options = {
    args: ["--mcp-config", mcpConfig],
    allowedTools: ["Read", "Bash", "ToolSearch", "mcp__tracker__lookup"],
  };
  const first = await runPrint(
    sandbox,
    `read the notes ${mockScript([
      { tool: "ToolSearch", input: { query: "select:mcp__tracker__lookup" }, input_tokens: 2_000 },
      { tool: "mcp__tracker__lookup", input: { id: "T-1" }, input_tokens: 3_000 },
      { tool: "Read", input: { file_path: join(sandbox.project, "notes.txt") }, input_tokens: 5_000 },
      { tool: "Bash", input: { command: "seq 1 300" }, input_tokens: 12_000, cache_read_input_tokens: 3_000 },
      { text: "read them", input_tokens: 20_000, cache_creation_input_tokens: 1_000 },
    ])}`,
    options,
  );
  sessionId = expectSuccess(first);
  expectSuccess(await runAutoCompactInLoop(sandbox, { ...options, resume: sessionId }));

  const carryover = (args: string[]) => {
    const result = spawnSync(process.execPath, [CLI, "context", ...args], {
      cwd: sandbox.project,
      env: { ...sandbox.env, CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" },
      encoding: "utf8",
    });
    if (result.status !== 0)
      throw new Error(`carryover context ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
    return result.stdout;
  };
  report = JSON.parse(carryover([sessionId, "--json"])) as ContextReport;
  terminal = carryover([]);
});
afterAll(() => sandbox?.cleanup());

it("the per-request series is the usage the mock reported, in order; the compaction sits where it happened", () => {
  const requests = sandbox.mock
    .requests()
    .filter((request) => request.kind === "main" || request.kind === "compaction");
  const reported = requests
    .filter((request) => request.kind === "main")
    .map((request) => {
      const usage = request.reply!.usage;
      return usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
    });
  expect(report.series.map((point) => point.contextTokens)).toEqual(reported);
  expect(reported.slice(0, 5)).toEqual([2_000, 3_000, 5_000, 15_000, 21_000]);
  expect(report.series[3]).toMatchObject({ inputTokens: 12_000, cacheReadTokens: 3_000, cacheCreationTokens: 0 });

  const compactionAt = requests.findIndex((request) => request.kind === "compaction");
  expect(report.compactions).toHaveLength(1);
  expect(report.compactions[0]).toMatchObject({ trigger: "auto", afterRequest: compactionAt });
  expect(report.compactions[0]!.preTokens).toBeGreaterThanOrEqual(70_000);
  expect(report.turns.map((turn) => [turn.requests, turn.endContextTokens])).toEqual([
    [5, 21_000],
    [reported.length - 5, reported.at(-1)],
  ]);
  expect(report.measuredTokens).toBe(reported.at(-1));
  expect(report.autoCompactTokens).toBe(67_000);
});

it("the breakdown reads the real transcript: tools and MCP tools as sent, CLAUDE.md and MEMORY.md, skills", () => {
  const category = (id: string) => report.categories.find((entry) => entry.id === id)!;
  expect(report.systemSource).toBe("request-shape");
  // What the last request really carried, at the report's 4 characters a token.
  const sent = (sandbox.mock.mainRequests().at(-1)!.body!.tools ?? []) as Array<{ name: string }>;
  const tokensOf = (tools: Array<{ name: string }>) =>
    tools.reduce((sum, tool) => sum + JSON.stringify(tool).length / 4, 0);
  const mcpSent = sent.filter((tool) => tool.name.startsWith("mcp__"));
  expect(mcpSent.map((tool) => tool.name)).toEqual(["mcp__tracker__lookup"]);
  expect(category("mcpTools").parts.map((part) => part.label)).toEqual(["tracker"]);
  expect(category("mcpTools").tokens).toBeGreaterThan(tokensOf(mcpSent) * 0.8);
  expect(category("mcpTools").tokens).toBeLessThan(tokensOf(mcpSent) * 1.25);
  const builtInSent = tokensOf(sent.filter((tool) => !tool.name.startsWith("mcp__")));
  expect(category("tools").tokens).toBeGreaterThan(builtInSent * 0.8);
  expect(category("tools").tokens).toBeLessThan(builtInSent * 1.5);
  expect(category("systemPrompt").tokens).toBeGreaterThan(1_000);
  expect(category("memoryFiles").parts.map((part) => part.label)).toEqual(
    expect.arrayContaining(["CLAUDE.md (project)", "MEMORY.md (auto-memory)"]),
  );
  expect(
    category("memoryFiles").parts.find((part) => part.label === "CLAUDE.md (project)")!.tokens,
  ).toBeGreaterThanOrEqual(200);
  expect(category("skills").tokens).toBeGreaterThan(0);
  expect(report.sessionId).toBe(sessionId);
});

it("`carryover context` without an argument finds the directory's newest session and prints the table", () => {
  expect(terminal).toContain(`carryover context · session ${sessionId} · claude-opus-5-5`);
  expect(terminal).toMatch(/Over time: \d+ requests, 2 turns, 1 compaction \(auto-compact at 67,000\)/);
});
