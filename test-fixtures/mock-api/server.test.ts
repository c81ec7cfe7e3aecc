import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { COMPACTION_MARKER, startMockApi, type MockApi } from "./server.ts";
import type { Message, MessagesBody, RequestMessage } from "./types.ts";

let mock: MockApi;
let logDir: string;

beforeEach(async () => {
  logDir = mkdtempSync(join(tmpdir(), "carryover-mock-test-"));
  mock = await startMockApi({ logDir });
});

afterEach(async () => {
  await mock.close();
  rmSync(logDir, { recursive: true, force: true });
});

function body(messages: RequestMessage[], extra: Partial<MessagesBody> = {}): MessagesBody {
  return { model: "claude-opus-5-5", max_tokens: 32000, tools: [{ name: "Bash" }], messages, ...extra };
}

async function post(payload: MessagesBody, path = "/v1/messages?beta=true"): Promise<Response> {
  return fetch(`${mock.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
}

async function reply(payload: MessagesBody): Promise<Message> {
  const response = await post(payload);
  expect(response.status).toBe(200);
  return (await response.json()) as Message;
}

function sseEvents(text: string): Array<{ event: string; data: Record<string, any> }> {
  return text
    .split("\n\n")
    .filter((chunk) => chunk.trim().length > 0)
    .map((chunk) => {
      const [eventLine, dataLine] = chunk.split("\n");
      return { event: eventLine!.replace("event: ", ""), data: JSON.parse(dataLine!.replace("data: ", "")) };
    });
}

const toolTurn = (id: string): RequestMessage[] => [
  { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: {} }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
];

describe("replies", () => {
  test("without a script: a text reply with end_turn and 1000 input tokens", async () => {
    const message = await reply(body([{ role: "user", content: "hi" }]));
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "Mock reply." }],
      stop_reason: "end_turn",
      usage: { input_tokens: 1000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    });
    expect(mock.mainRequests()).toHaveLength(1);
    expect(mock.requests()[0]).toMatchObject({ path: "/v1/messages", url: "/v1/messages?beta=true", kind: "main" });
  });

  test("streaming sends the Messages API event sequence, tool input as input_json_delta", async () => {
    const script = 'MOCKSCRIPT:[{"text":"let me look","tool":"Bash","input":{"command":"ls"},"input_tokens":1234}]';
    const response = await post(body([{ role: "user", content: script }], { stream: true }));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = sseEvents(await response.text());

    expect(events.map((event) => event.event)).toEqual([
      "message_start",
      ...["content_block_start", "content_block_delta", "content_block_stop"],
      ...["content_block_start", "content_block_delta", "content_block_stop"],
      "message_delta",
      "message_stop",
    ]);
    expect(events.every((event) => event.data.type === event.event)).toBe(true);
    expect(events[0]!.data.message).toMatchObject({ role: "assistant", content: [], stop_reason: null, usage: { input_tokens: 1234 } });
    expect(events[1]!.data.content_block).toEqual({ type: "text", text: "" });
    expect(events[2]!.data.delta).toEqual({ type: "text_delta", text: "let me look" });
    expect(events[4]!.data).toMatchObject({ index: 1, content_block: { type: "tool_use", name: "Bash", input: {} } });
    expect(events[4]!.data.content_block.id).toMatch(/^toolu_mock_1_0$/);
    expect(JSON.parse(events[5]!.data.delta.partial_json)).toEqual({ command: "ls" });
    expect(events[7]!.data).toMatchObject({ delta: { stop_reason: "tool_use" }, usage: { input_tokens: 1234 } });
  });
});

describe("scripts", () => {
  const prompt = 'do MOCKSCRIPT:[{"tool":"Bash","input":{"command":"a"}},{"tool":"Bash","input":{"command":"b"}},{"text":"end"}]';

  test("the step index is the number of assistant turns since the latest prompt", async () => {
    const first = await reply(body([{ role: "user", content: prompt }]));
    const second = await reply(body([{ role: "user", content: prompt }, ...toolTurn("x1")]));
    const third = await reply(body([{ role: "user", content: prompt }, ...toolTurn("x1"), ...toolTurn("x2")]));
    const past = await reply(body([{ role: "user", content: prompt }, ...toolTurn("x1"), ...toolTurn("x2"), ...toolTurn("x3")]));

    expect(first.content).toEqual([expect.objectContaining({ type: "tool_use", input: { command: "a" } })]);
    expect(second.content).toEqual([expect.objectContaining({ type: "tool_use", input: { command: "b" } })]);
    expect(third).toMatchObject({ content: [{ type: "text", text: "end" }], stop_reason: "end_turn" });
    expect(past.content).toEqual([{ type: "text", text: "Mock reply." }]);
  });

  test("a later prompt without a script gets the default reply", async () => {
    const message = await reply(body([{ role: "user", content: prompt }, { role: "assistant", content: "end" }, { role: "user", content: "thanks" }]));
    expect(message.content).toEqual([{ type: "text", text: "Mock reply." }]);
  });

  test("after compaction removed the prompt, the script continues from the remembered tool_use", async () => {
    const first = await reply(body([{ role: "user", content: prompt }]));
    const toolUseId = (first.content[0] as { id: string }).id;
    const summaryPrompt: RequestMessage = { role: "user", content: "This session is being continued … Summary:\nMOCK SUMMARY" };

    const next = await reply(body([summaryPrompt, ...toolTurn(toolUseId)]));

    expect(next.content).toEqual([expect.objectContaining({ type: "tool_use", input: { command: "b" } })]);
  });

  test("enqueued steps come first, then scripts registered for a prompt substring", async () => {
    mock.enqueue({ text: "queued" });
    mock.scriptFor("magic words", [{ text: "registered" }]);

    expect((await reply(body([{ role: "user", content: prompt }]))).content).toEqual([{ type: "text", text: "queued" }]);
    expect((await reply(body([{ role: "user", content: "say the magic words" }]))).content).toEqual([{ type: "text", text: "registered" }]);
  });

  test("an invalid script is answered 400 and reported in errors()", async () => {
    const response = await post(body([{ role: "user", content: "MOCKSCRIPT:[{oops}]" }]));
    expect(response.status).toBe(400);
    expect(mock.errors()).toEqual([expect.stringContaining("not valid JSON")]);
  });
});

describe("usage", () => {
  test("a step's tokens win over the log-dir files, which win over setUsage", async () => {
    mock.setUsage({ input_tokens: 5000, cache_read_input_tokens: 7 });
    expect((await reply(body([{ role: "user", content: "a" }]))).usage).toMatchObject({ input_tokens: 5000, cache_read_input_tokens: 7 });

    writeFileSync(join(logDir, "input_tokens"), "70000\n");
    expect((await reply(body([{ role: "user", content: "b" }]))).usage).toMatchObject({ input_tokens: 70000, cache_read_input_tokens: 7 });

    const scripted = await reply(body([{ role: "user", content: 'MOCKSCRIPT:[{"text":"x","input_tokens":123,"cache_read_input_tokens":9}]' }]));
    expect(scripted.usage).toMatchObject({ input_tokens: 123, cache_read_input_tokens: 9 });
  });
});

describe("compaction and side requests", () => {
  const compactionBody = body([
    { role: "user", content: "work" },
    { role: "assistant", content: "done" },
    { role: "user", content: [{ type: "text", text: `CRITICAL: Respond with TEXT ONLY.\n\n${COMPACTION_MARKER}, paying attention` }] },
  ]);

  test("a compaction request gets an analysis and a summary block", async () => {
    const message = await reply(compactionBody);
    expect(message.content).toEqual([
      { type: "text", text: "<analysis>mock analysis</analysis>\n<summary>MOCK SUMMARY 1: the user asked for things; files were edited.</summary>" },
    ]);
    expect(mock.compactionRequests()).toHaveLength(1);
    expect(mock.mainRequests()).toHaveLength(0);
  });

  test("the summary text is configurable", async () => {
    mock.setSummary((n) => `custom summary of request ${n}`);
    const message = await reply(compactionBody);
    expect(message.content[0]).toMatchObject({ text: expect.stringContaining("<summary>custom summary of request 1</summary>") });
  });

  test("a request without tools is a side query with a short text reply", async () => {
    const message = await reply({ model: "claude-haiku", max_tokens: 512, messages: [{ role: "user", content: "title?" }] });
    expect(message.content).toEqual([{ type: "text", text: "Mock side reply." }]);
    expect(mock.sideRequests()).toHaveLength(1);
  });
});

describe("other endpoints and the log", () => {
  test("count_tokens answers a number; unknown paths get 404 and are listed", async () => {
    const counted = await post(body([{ role: "user", content: "hi" }]), "/v1/messages/count_tokens?beta=true");
    expect(await counted.json()).toEqual({ input_tokens: expect.any(Number) });
    const unknown = await fetch(`${mock.url}/api/hello`);
    expect(unknown.status).toBe(404);
    expect(mock.unknownPaths()).toEqual(["GET /api/hello"]);
  });

  test("every request is appended to requests.jsonl with its kind and reply", async () => {
    await reply(body([{ role: "user", content: "hi" }]));
    const lines = readFileSync(join(logDir, "requests.jsonl"), "utf8").trim().split("\n");
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ n: 1, kind: "main", body: expect.objectContaining({ max_tokens: 32000 }), reply: expect.objectContaining({ id: "msg_mock_1" }) }),
    ]);
  });

  test("waitForRequest resolves with the first match", async () => {
    const waiting = mock.waitForRequest((request) => request.kind === "main", 2_000);
    await reply(body([{ role: "user", content: "hi" }]));
    await expect(waiting).resolves.toMatchObject({ n: 1 });
  });
});
