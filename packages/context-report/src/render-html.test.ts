import { describe, expect, it } from "vitest";
import { reportWith } from "../test/report-fixture.ts";
import { renderHtml } from "./render-html.ts";

const series = [10_000, 40_000, 70_000, 3_000, 9_000].map((contextTokens, index) => ({
  request: index + 1,
  turn: 1,
  contextTokens,
  inputTokens: contextTokens,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  outputTokens: 5,
}));
const report = reportWith(
  { systemPrompt: { tokens: 3_000 }, messages: { tokens: 2_000 }, toolResults: { tokens: 4_000 } },
  {
    series,
    autoCompactTokens: 67_000,
    compactions: [{ trigger: "auto", afterRequest: 3, preTokens: 70_005, postTokens: 2_686, boundary: true }],
    turns: [
      {
        turn: 1,
        prompt: 'fix <script>alert("x")</script>',
        requests: 5,
        endContextTokens: 9_000,
        peakContextTokens: 70_000,
        outputTokens: 25,
      },
    ],
  },
);

describe("HTML report", () => {
  const html = renderHtml(report, Date.UTC(2026, 10, 29));

  it("is one self-contained page: no scripts, no external references", () => {
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).not.toMatch(/<script|<link|@import|url\(|src=/i);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(html).toContain('<meta name="generator" content="carryover context">');
  });

  it("charts usage per request with the auto-compact line and each compaction with its numbers", () => {
    expect(html.match(/<circle class="usage-point"/g)).toHaveLength(5);
    expect(html).toContain('data-request="3" data-tokens="70000"');
    expect(html).toMatch(/<line class="auto-compact" data-tokens="67000"/);
    expect(html).toMatch(
      /<g class="compaction" data-index="1" data-trigger="auto" data-pre-tokens="70005" data-post-tokens="2686">/,
    );
    expect(html).toContain("auto: 70k → 2.7k");
  });

  it("draws one breakdown bar per category, sized by its tokens", () => {
    const bars = [
      ...html.matchAll(
        /<rect class="category-bar[^"]*" data-category="(\w+)" data-tokens="(\d+)" x="\d+" [^>]*width="([\d.]+)"/g,
      ),
    ];
    expect(bars.map((bar) => bar[1])).toEqual([
      "systemPrompt",
      "tools",
      "mcpTools",
      "memoryFiles",
      "skills",
      "messages",
      "toolResults",
    ]);
    const widthOf = (id: string) => Number(bars.find((bar) => bar[1] === id)![3]);
    expect(widthOf("toolResults")).toBeCloseTo(widthOf("messages") * 2, 0);
    expect(widthOf("skills")).toBe(0);
  });

  it("escapes what came from the transcript", () => {
    expect(html).not.toContain("<script>");
    expect(html).toContain("fix &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("says so when there is no usage yet", () => {
    expect(renderHtml(reportWith({ systemPrompt: { tokens: 1 } }), 0)).toContain(
      "No response with usage in this transcript yet",
    );
  });
});
