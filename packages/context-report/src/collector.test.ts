import { describe, expect, it } from "vitest";
import { ContextCollector } from "./collector.ts";
import type { ContextReport, WorkRecord } from "./model.ts";
import { summarize } from "./summarize.ts";

let uuidCounter = 0;
const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ uuid: `u-${++uuidCounter}`, sessionId: "s-1", cwd: "/nowhere", ...fields });
const prompt = (text: string, uuid?: string) =>
  line({ type: "user", message: { role: "user", content: text }, ...(uuid && { uuid }) });
const assistant = (
  id: string,
  content: unknown[],
  usage: Record<string, number>,
  extra: Record<string, unknown> = {},
) =>
  line({ type: "assistant", message: { id, model: "claude-opus-5-5", role: "assistant", content, usage }, ...extra });
const toolUse = (id: string, name: string, input: Record<string, unknown>) => ({ type: "tool_use", id, name, input });
const toolResult = (id: string, content: unknown, extra: Record<string, unknown> = {}) =>
  line({
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] },
    ...extra,
  });
const attachment = (attachmentFields: Record<string, unknown>, renderedText: string) =>
  line({ type: "attachment", attachment: attachmentFields, rendered: [{ content: renderedText }] });
const shape = (system: string, tools: Array<Record<string, unknown>>) =>
  JSON.stringify({
    type: "api-request-shape",
    sessionId: "s-1",
    shape: { system: [{ type: "text", text: system }], tools },
  });
const boundary = (preTokens: number, postTokens: number, preserved: string[] = []) =>
  line({
    type: "system",
    subtype: "compact_boundary",
    compactMetadata: { trigger: "auto", preTokens, postTokens, preservedMessages: { allUuids: preserved } },
  });

const NO_WORK: WorkRecord = {
  since: "start",
  lastRequest: null,
  filesChanged: [],
  commands: [],
  errors: [],
  todos: [],
  tasks: [],
  workers: [],
};

function report(lines: string[], env: Record<string, string> = {}): ContextReport {
  const collector = new ContextCollector();
  for (const text of lines) collector.line(text);
  return summarize(
    collector.finish(),
    { path: "/t.jsonl", bytes: 1, work: NO_WORK },
    { env: { HOME: "/nonexistent-home", ...env } },
  );
}

const tokensOf = (result: ContextReport, id: string) =>
  result.categories.find((category) => category.id === id)!.tokens;
const partsOf = (result: ContextReport, id: string) => result.categories.find((category) => category.id === id)!.parts;

describe("what fills the context", () => {
  it("sizes system prompt and tools from the request shape, MCP tools by server", () => {
    const mcpTool = { name: "mcp__github__create_issue", description: "g".repeat(3_960), input_schema: {} };
    const result = report([
      shape("s".repeat(4_000), [{ name: "Bash", description: "b".repeat(2_000) }, mcpTool]),
      prompt("hi"),
    ]);
    expect(result.systemSource).toBe("request-shape");
    expect(tokensOf(result, "systemPrompt")).toBe(1_000);
    expect(tokensOf(result, "tools")).toBeGreaterThan(500);
    expect(partsOf(result, "mcpTools")).toEqual([{ label: "github", tokens: tokensOf(result, "mcpTools") }]);
    expect(tokensOf(result, "mcpTools")).toBe(Math.ceil(JSON.stringify(mcpTool).length / 4));
  });

  it("puts each CLAUDE.md and MEMORY.md under memory files, the skill listing under skills", () => {
    const files = [
      { path: "/home/u/.claude/CLAUDE.md", type: "User", content: "u".repeat(400) },
      { path: "/p/CLAUDE.md", type: "Project", content: "p".repeat(800) },
      { path: "/home/u/.claude/projects/-p/memory/MEMORY.md", type: "AutoMem", content: "m".repeat(1_200) },
    ];
    const result = report([
      attachment(
        { type: "instructions", files },
        `${"h".repeat(40)}${"u".repeat(400)}${"p".repeat(800)}${"m".repeat(1_200)}`,
      ),
      attachment({ type: "skill_listing", skillCount: 3 }, "k".repeat(2_000)),
    ]);
    expect(partsOf(result, "memoryFiles")).toEqual([
      { label: "MEMORY.md (auto-memory)", tokens: 300 },
      { label: "CLAUDE.md (project)", tokens: 200 },
      { label: "CLAUDE.md (user)", tokens: 100 },
      { label: "Claude Code's header", tokens: 10 },
    ]);
    expect(result.largestItems[0]).toEqual({ category: "skills", label: "skill listing (3 skills)", tokens: 500 });
  });

  it("breaks tool results out per tool, labelled with what they were about; a skill body counts as skills", () => {
    const result = report([
      prompt("read it"),
      assistant("m1", [toolUse("t1", "Read", { file_path: "/p/big.ts" })], { input_tokens: 10 }),
      toolResult("t1", "x".repeat(40_000)),
      assistant("m2", [toolUse("t2", "Bash", { command: "npm test" })], { input_tokens: 20 }),
      toolResult("t2", [{ type: "text", text: "y".repeat(4_000) }]),
      assistant("m3", [toolUse("t3", "Skill", { skill: "deploy" })], { input_tokens: 30 }),
      toolResult("t3", "Launching skill: deploy"),
      line({
        type: "user",
        isMeta: true,
        sourceToolUseID: "t3",
        message: { role: "user", content: [{ type: "text", text: "z".repeat(800) }] },
      }),
    ]);
    expect(partsOf(result, "toolResults")).toEqual([
      { label: "Read", tokens: 10_000 },
      { label: "Bash", tokens: 1_000 },
      { label: "Skill", tokens: 6 },
    ]);
    expect(result.dominant).toBe("toolResults");
    expect(result.largestItems.slice(0, 3)).toEqual([
      { category: "toolResults", label: "Read: /p/big.ts", tokens: 10_000 },
      { category: "toolResults", label: "Bash: npm test", tokens: 1_000 },
      { category: "skills", label: "skill body: deploy", tokens: 200 },
    ]);
  });

  it("keeps only what a compaction preserved, plus what came after it", () => {
    const result = report([
      prompt("first task"),
      assistant("m1", [toolUse("t1", "Read", { file_path: "/p/old.ts" })], { input_tokens: 100 }),
      toolResult("t1", "o".repeat(8_000)),
      assistant("m2", [toolUse("t2", "Read", { file_path: "/p/kept.ts" })], { input_tokens: 200 }),
      toolResult("t2", "k".repeat(4_000), { uuid: "kept-result" }),
      boundary(90_000, 3_000, ["kept-result"]),
      line({ type: "user", isCompactSummary: true, message: { role: "user", content: "s".repeat(2_000) } }),
    ]);
    expect(result.largestItems.filter((item) => item.category !== "systemPrompt")).toEqual([
      { category: "toolResults", label: "Read: /p/kept.ts", tokens: 1_000 },
      { category: "messages", label: "compaction summary", tokens: 500 },
    ]);
    expect(result.measuredTokens).toBe(3_000);
    expect(result.measuredSource).toBe("compaction");
    expect(result.compactions).toEqual([
      { trigger: "auto", afterRequest: 2, atMs: undefined, preTokens: 90_000, postTokens: 3_000, boundary: true },
    ]);
  });

  it("knows a compaction that wrote only its summary line (1.0.5x): what came before gone, postTokens unknown", () => {
    const result = report([
      prompt("first task"),
      assistant("m1", [toolUse("t1", "Read", { file_path: "/p/old.ts" })], { input_tokens: 150_000 }),
      toolResult("t1", "o".repeat(8_000)),
      line({ type: "user", isCompactSummary: true, message: { role: "user", content: "s".repeat(2_000) } }),
    ]);
    expect(result.compactions).toEqual([
      { trigger: "unknown", afterRequest: 1, atMs: undefined, preTokens: 150_000, postTokens: null, boundary: false },
    ]);
    expect(result.largestItems.filter((item) => item.category !== "systemPrompt")).toEqual([
      { category: "messages", label: "compaction summary", tokens: 500 },
    ]);
    // Nothing measured the context after it: no figure rather than 0.
    expect(result.measuredTokens).toBeNull();
  });

  it("never sizes the system prompt above a whole request, and says what the figure rests on", () => {
    // The first response also carried an @-mentioned file the transcript does not show as a message.
    const result = report([
      prompt("look at @big.ts"),
      assistant("m1", [{ type: "text", text: "ok" }], { input_tokens: 76_392 }),
      line({
        type: "system",
        subtype: "compact_boundary",
        compactMetadata: { trigger: "manual", preTokens: 76_400, postTokens: 9_000 },
      }),
      line({ type: "user", isCompactSummary: true, message: { role: "user", content: "summary" } }),
      prompt("next"),
      assistant("m2", [{ type: "text", text: "ok" }], { input_tokens: 59_179 }),
    ]);
    const system = result.categories.find((category) => category.id === "systemPrompt")!;
    expect(system.tokens).toBe(59_179);
    expect(system.basis).toBe(
      "the first response's measured 76,392 minus its messages' text (≈4), " +
        "cut to the smallest request's 59,179 (every request carries them)",
    );
    for (const category of result.categories) expect(category.basis).toMatch(/\S/);
  });

  it("ignores sidechain lines and attachments the model never gets", () => {
    const result = report([
      line({ type: "user", isSidechain: true, message: { role: "user", content: "q".repeat(10_000) } }),
      line({ type: "attachment", attachment: { type: "command_permissions", allowedTools: [] } }),
      prompt("only me"),
    ]);
    expect(result.estimatedTokens).toBe(Math.ceil("only me".length / 4));
  });

  it("counts a line that is not JSON, or JSON but not an object, as bad and reads on", () => {
    const result = report(['{"type":"user","mess', "null", "42", prompt("still read")]);
    expect(result.badLines).toBe(3);
    expect(result.estimatedTokens).toBe(Math.ceil("still read".length / 4));
  });

  it("without a request shape, sizes system prompt and tools as the first response's usage minus its messages", () => {
    const result = report([
      prompt("p".repeat(400)),
      assistant("m1", [{ type: "text", text: "ok" }], { input_tokens: 5_100 }),
    ]);
    expect(result.systemSource).toBe("first-response");
    expect(tokensOf(result, "systemPrompt")).toBe(5_000);
  });
});

describe("usage over time", () => {
  it("a point per response (lines share an id), a turn per typed prompt, context = input + both caches", () => {
    const usage = {
      input_tokens: 1_000,
      cache_creation_input_tokens: 200,
      cache_read_input_tokens: 300,
      output_tokens: 7,
    };
    const result = report([
      prompt("first"),
      assistant("m1", [{ type: "text", text: "a" }], usage),
      assistant("m1", [toolUse("t1", "Bash", { command: "ls" })], { ...usage, output_tokens: 9 }),
      toolResult("t1", "ok"),
      assistant("m2", [{ type: "text", text: "b" }], { input_tokens: 2_000, output_tokens: 3 }),
      line({ type: "user", message: { role: "user", content: "<command-name>/compact</command-name>" } }),
      prompt("second"),
      assistant("m3", [{ type: "text", text: "c" }], { input_tokens: 2_500, output_tokens: 1 }),
      assistant(
        "m4",
        [{ type: "text", text: "made up" }],
        { input_tokens: 0 },
        { message: { id: "x", model: "<synthetic>", content: [], usage: {} } },
      ),
    ]);
    expect(result.series.map((point) => [point.request, point.turn, point.contextTokens, point.outputTokens])).toEqual([
      [1, 1, 1_500, 9],
      [2, 1, 2_000, 3],
      [3, 2, 2_500, 1],
    ]);
    expect(
      result.turns.map((turn) => [
        turn.prompt,
        turn.requests,
        turn.endContextTokens,
        turn.peakContextTokens,
        turn.outputTokens,
      ]),
    ).toEqual([
      ["first", 2, 2_000, 2_000, 12],
      ["second", 1, 2_500, 2_500, 1],
    ]);
    expect(result.measuredTokens).toBe(2_500);
    expect(result.model).toBe("claude-opus-5-5");
  });

  it("places the measure against the auto-compact point of the model's window and the env", () => {
    const lines = [prompt("go"), assistant("m1", [], { input_tokens: 33_500 })];
    const windowed = report(lines, { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" });
    expect(windowed.modelWindowTokens).toBe(1_000_000);
    expect(windowed.autoCompactTokens).toBe(67_000);
    expect(windowed.autoCompactPercent).toBe(50);
    expect(report(lines, { DISABLE_AUTO_COMPACT: "1" }).autoCompactTokens).toBeNull();
  });
});
