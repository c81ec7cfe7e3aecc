import { describe, expect, it } from "vitest";
import { reportWith } from "../test/report-fixture.ts";

const fixed = { systemPrompt: { tokens: 3_000 }, tools: { tokens: 8_000 } };
const topics = (report: ReturnType<typeof reportWith>) => report.advice.map((item) => item.topic);

describe("advice (seed 000, 'Verificar el estado del contexto')", () => {
  it("names the tool and the largest result when tool results dominate, and says to delegate reads", () => {
    const report = reportWith(
      {
        ...fixed,
        toolResults: {
          tokens: 40_000,
          parts: [
            { label: "Read", tokens: 36_000 },
            { label: "Bash", tokens: 4_000 },
          ],
        },
      },
      { largestItems: [{ category: "toolResults", label: "Read: src/huge.ts", tokens: 30_000 }] },
    );
    expect(topics(report)).toEqual(["toolResults"]);
    expect(report.advice[0]!.text).toMatch(
      /^Tool results hold 78\.4% of the context, most of it from Read \(36,000 tokens\); the largest is /,
    );
    expect(report.advice[0]!.text).toContain("; the largest is Read: src/huge.ts (30,000). ");
    expect(report.advice[0]!.text).toContain("subagent");
  });

  it("says /compact with instructions when the messages dominate", () => {
    const report = reportWith({ ...fixed, messages: { tokens: 50_000 } });
    expect(topics(report)).toEqual(["messages"]);
    expect(report.advice[0]!.text).toContain("/compact with precise instructions");
  });

  it("names the MCP servers to turn off from 10 % on", () => {
    const report = reportWith({
      ...fixed,
      messages: { tokens: 20_000 },
      mcpTools: {
        tokens: 4_000,
        parts: [
          { label: "github", tokens: 3_000 },
          { label: "jira", tokens: 1_000 },
        ],
      },
    });
    expect(topics(report)).toEqual(["messages", "mcpTools"]);
    expect(report.advice[1]!.text).toBe(
      "MCP tools take 11.4% (github 3,000, jira 1,000 tokens): every active server adds its tools to every request. " +
        "Turn off the servers this session does not use (/mcp).",
    );
  });

  it("calls a fresh session's system prompt and tools a fixed cost", () => {
    expect(topics(reportWith({ ...fixed, messages: { tokens: 500 } }))).toEqual(["tools"]);
  });

  it("puts the level first: manual /compact from 50 %, urgent from 70 %, nothing below", () => {
    const at = (percent: number) =>
      reportWith(
        { ...fixed, messages: { tokens: 50_000 } },
        { measuredTokens: percent * 10_000, autoCompactTokens: 1_000_000, autoCompactPercent: percent },
      );
    expect(topics(at(49))).toEqual(["messages"]);
    expect(at(55).advice[0]).toEqual({
      topic: "level",
      text: expect.stringMatching(
        new RegExp(
          String.raw`^At 55\.0% of the auto-compact point \(550,000 of 1,000,000 tokens\): ` +
            "this is the moment for a manual /compact",
        ),
      ),
    });
    expect(at(80).advice[0]!.text).toMatch(/^At 80\.0% .* auto-compaction is close: run \/compact now/);
  });

  it("warns when auto-compaction is off", () => {
    const report = reportWith({ ...fixed }, { autoCompactTokens: null, autoCompactPercent: null });
    expect(report.advice[0]!.text).toMatch(/^Auto-compaction is off/);
  });
});
