import { describe, expect, it } from "vitest";
import { reportWith } from "../test/report-fixture.ts";
import { renderTerminal } from "./render-terminal.ts";

const ANSI = /\u001b\[[0-9;]*m/;

const report = reportWith(
  {
    systemPrompt: { tokens: 3_000 },
    tools: { tokens: 8_000 },
    messages: { tokens: 12_000 },
    toolResults: {
      tokens: 45_000,
      parts: [
        { label: "Read", tokens: 40_000 },
        { label: "Bash", tokens: 5_000 },
      ],
    },
  },
  {
    measuredTokens: 70_000,
    autoCompactTokens: 100_000,
    autoCompactPercent: 70,
    largestItems: [{ category: "toolResults", label: "Read: /p/src/huge.ts", tokens: 30_000 }],
    series: [1, 2, 3].map((request) => ({
      request,
      turn: request < 3 ? 1 : 2,
      contextTokens: request * 20_000,
      inputTokens: request * 20_000,
      cacheCreationTokens: 0,
      cacheReadTokens: 0,
      outputTokens: 10,
    })),
    turns: [
      {
        turn: 1,
        prompt: "read the big file",
        requests: 2,
        endContextTokens: 40_000,
        peakContextTokens: 40_000,
        outputTokens: 20,
      },
      {
        turn: 2,
        prompt: "now fix it",
        requests: 1,
        endContextTokens: 60_000,
        peakContextTokens: 60_000,
        outputTokens: 10,
      },
    ],
    compactions: [{ trigger: "manual", afterRequest: 2, preTokens: 40_000, postTokens: 5_000, boundary: true }],
  },
);

describe("terminal report", () => {
  it("says what each estimate rests on and what the session did since its last compaction, unknowns as such", () => {
    const unknown = reportWith(
      { systemPrompt: { tokens: 3_000 }, messages: { tokens: 2_000 } },
      {
        compactions: [{ trigger: "unknown", afterRequest: 2, preTokens: 155_671, postTokens: null, boundary: false }],
        work: {
          since: { line: 502, trigger: "unknown", preTokens: 155_671, postTokens: null },
          lastRequest: "continue",
          filesChanged: [
            { path: "/p/a.go", count: 1 },
            { path: "/p/internal/b.go", count: 11 },
          ],
          commands: [{ command: "go build", runs: 5, failures: 4 }],
          errors: [
            { tool: "Bash", target: "go build", message: "syntax error", resolved: true },
            { tool: "Bash", target: "go test ./...", message: "# pkg\nundefined: fmt", resolved: false },
          ],
          todos: [{ content: "Task-85", status: "completed" }],
          tasks: [],
          workers: [
            { kind: "shell", id: "b1", description: "dev server", command: "go run .", state: "running" },
            { kind: "agent", id: "a2", description: "review", command: null, state: "completed" },
          ],
        },
      },
    );
    const text = renderTerminal(unknown, { color: false });
    expect(text).toContain("1. unknown after request 2: 155,671 → unknown tokens (no boundary line)");
    expect(text).toContain("  System prompt & environment: systemPrompt text, ≈4 characters a token\n");
    expect(text).toContain("Work since the last compaction (line 502, unknown, 155,671 → unknown tokens)\n");
    expect(text).toContain("  Last request   “continue”\n");
    expect(text).toContain("  Files changed  2: internal/b.go ×11, a.go\n");
    expect(text).toContain("  Commands       1 distinct, 5 runs, 4 failed\n");
    expect(text).toContain("  Errors         2, 1 fixed; unresolved: Bash go test ./...: # pkg\n");
    expect(text).toContain("  Progress       1 of 1 todos done\n");
    expect(text).toContain("  Workers        1 at work: shell b1 “dev server”; 1 ended\n");
    expect(renderTerminal(reportWith({ messages: { tokens: 1 } }), { color: false })).toContain(
      "Work this session (no compaction)\n",
    );
  });

  it("has no escape codes without colour and some with it", () => {
    expect(renderTerminal(report, { color: false })).not.toMatch(ANSI);
    expect(renderTerminal(report, { color: true })).toMatch(ANSI);
  });

  it("aligns the category rows: every tokens column ends at the same place, bars scale to the largest", () => {
    const text = renderTerminal(report, { color: false });
    const rows = text
      .split("\n")
      .filter((row) => /^(System prompt|Tools|MCP tools|Memory files|Skills|Messages|Tool results)/.test(row));
    expect(rows).toHaveLength(7);
    const ends = rows.map((row) => row.search(/\d\s+\d+\.\d%/) + 1);
    expect(new Set(ends).size).toBe(1);
    expect(rows.find((row) => row.startsWith("Tool results"))).toMatch(/◀ largest .*45,000 +66\.2% +█{24}$/);
    expect(rows.find((row) => row.startsWith("Tools"))).toMatch(/8,000 +11\.8% +████▎$/);
  });

  it("shows the level, the per-tool rows, the largest item, turns, the compaction and the advice", () => {
    const text = renderTerminal(report, { color: false });
    expect(text).toMatch(
      /Context now {2}70,000 tokens measured on the last response · 70\.0% of the auto-compact point \(100,000\) ·\s+/,
    );
    expect(text).toMatch(/ ·\s+window 1,000,000\n/);
    expect(text).toMatch(/\n {2}Read +40,000\n {2}Bash +5,000\n/);
    expect(text).toMatch(/30,000 {2}Tool results {2}Read: \/p\/src\/huge\.ts/);
    expect(text).toContain("Over time: 3 requests, 2 turns, 1 compaction (auto-compact at 100,000)");
    expect(text).toMatch(/ {2}▂▄┃▅ {2}peak 60,000\n/);
    expect(text).toContain(`\n      2         1          60,000     60,000       10  now fix it\n`);
    expect(text).toContain("1. manual  after request 2: 40,000 → 5,000 tokens");
    expect(text).toMatch(/What to do\n {2}• At 70\.0% of the auto-compact point/);
  });

  it("keeps to the terminal's width and shows only the newest turns", () => {
    const many = {
      ...report,
      turns: Array.from({ length: 40 }, (_, i) => ({ ...report.turns[0]!, turn: i + 1, prompt: "p".repeat(200) })),
    };
    const text = renderTerminal(many, { color: false, columns: 80, maxTurns: 5 });
    const [, , ...rows] = text.split("\n");
    expect(Math.max(...rows.map((row) => [...row].length))).toBeLessThanOrEqual(80);
    expect(text).toContain("… 35 earlier turns");
  });
});
