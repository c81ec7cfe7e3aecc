import { appendFileSync, mkdirSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { classifyMessages } from "./classify.ts";
import { fillStep } from "./fill.ts";
import { readUsageFiles } from "./overrides.ts";
import { Planner } from "./plan.ts";
import { compactionText, DEFAULT_MODEL, stepMessage } from "./reply.ts";
import { formatSse, messageEvents } from "./sse.ts";
import type { Message, MessagesBody, RecordedRequest, Step, Usage } from "./types.ts";

export { requestText } from "./text.ts";
export type { RecordedRequest, Step } from "./types.ts";

export interface MockApiOptions {
  /** Where `requests.jsonl` is written and usage override files (`input_tokens`, …) are read from. */
  logDir?: string;
  /** Reply when no script applies. */
  defaultText?: string;
  /** Summary text of compaction replies; a function gets the request number. */
  summary?: string | ((n: number) => string);
  /** Usage reported when neither the step nor an override says otherwise. */
  usage?: Partial<Usage>;
  /**
   * Called with each request once it is recorded and classified, before it is answered: what the disk holds
   * at that moment is what the model could read next (a benchmark reads the files a request names here).
   */
  onRequest?: (request: RecordedRequest) => void;
}

export interface MockApi {
  url: string;
  port: number;
  close(): Promise<void>;
  requests(): RecordedRequest[];
  mainRequests(): RecordedRequest[];
  compactionRequests(): RecordedRequest[];
  sideRequests(): RecordedRequest[];
  /** Paths the mock has no handler for (answered 404). */
  unknownPaths(): string[];
  /** Problems such as an invalid MOCKSCRIPT (answered 400), so a test can assert there were none. */
  errors(): string[];
  enqueue(...steps: Step[]): void;
  /** Plays `steps` for prompts containing `promptSubstring` (like a MOCKSCRIPT, without putting it in the prompt). */
  scriptFor(promptSubstring: string, steps: Step[]): void;
  /** Usage for later main replies (a step's own numbers and the log-dir files still win). */
  setUsage(usage: Partial<Usage>): void;
  setSummary(summary: string | ((n: number) => string)): void;
  /** Resolves with the first recorded request matching `predicate`, polling every 25 ms. */
  waitForRequest(predicate: (request: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
}

const SUMMARY = (n: number) => `MOCK SUMMARY ${n}: the user asked for things; files were edited.`;

export async function startMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  const recorded: RecordedRequest[] = [];
  const errors: string[] = [];
  const planner = new Planner(options.defaultText ?? "Mock reply.");
  let usage: Partial<Usage> = { ...options.usage };
  let summary = options.summary ?? SUMMARY;
  const logFile = options.logDir === undefined ? undefined : join(options.logDir, "requests.jsonl");
  if (options.logDir !== undefined) mkdirSync(options.logDir, { recursive: true });

  const messagesReply = (record: RecordedRequest): { reply: Message; delayMs: number } => {
    const body = record.body ?? {};
    const model = body.model ?? DEFAULT_MODEL;
    if (record.kind === "compaction") {
      const text = compactionText(typeof summary === "function" ? summary(record.n) : summary);
      return { reply: stepMessage({ text }, record.n, model, {}), delayMs: 0 };
    }
    if (record.kind === "side")
      return { reply: stepMessage({ text: "Mock side reply." }, record.n, model, {}), delayMs: 0 };
    const { step, position } = planner.next(body.messages ?? []);
    const usageNow = { ...usage, ...readUsageFiles(options.logDir) };
    const reply = stepMessage(fillStep(step, body.messages ?? []), record.n, model, usageNow);
    planner.remember(reply, position);
    return { reply, delayMs: step.delay_ms ?? 0 };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const url = req.url ?? "/";
    const path = url.split("?")[0]!;
    const record: RecordedRequest = {
      n: recorded.length + 1,
      kind: "other",
      method: req.method ?? "GET",
      path,
      url,
      headers: req.headers,
      body: parseJson(raw),
    };
    recorded.push(record);
    if (record.method === "POST" && path === "/v1/messages") {
      record.kind = classifyMessages(record.body);
      options.onRequest?.(record);
      let delayMs: number;
      try {
        ({ reply: record.reply, delayMs } = messagesReply(record));
      } catch (error) {
        const message = (error as Error).message;
        errors.push(`request ${record.n}: ${message}`);
        sendJson(res, 400, { type: "error", error: { type: "invalid_request_error", message: `mock: ${message}` } });
        return log(record);
      }
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (record.body?.stream === true) sendSse(res, record.reply);
      else sendJson(res, 200, record.reply);
    } else if (record.method === "POST" && path === "/v1/messages/count_tokens") {
      record.kind = "count_tokens";
      sendJson(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
    } else {
      sendJson(res, 404, {
        type: "error",
        error: { type: "not_found_error", message: `mock: no handler for ${record.method} ${path}` },
      });
    }
    log(record);
  };

  const log = (record: RecordedRequest): void => {
    if (logFile !== undefined) appendFileSync(logFile, `${JSON.stringify(record)}\n`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      errors.push(`handler: ${(error as Error).message}`);
      if (!res.headersSent)
        sendJson(res, 500, { type: "error", error: { type: "api_error", message: "mock: handler failed" } });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  const ofKind = (kind: RecordedRequest["kind"]) => () => recorded.filter((request) => request.kind === kind);

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    requests: () => [...recorded],
    mainRequests: ofKind("main"),
    compactionRequests: ofKind("compaction"),
    sideRequests: ofKind("side"),
    unknownPaths: () =>
      recorded.filter((request) => request.kind === "other").map((request) => `${request.method} ${request.path}`),
    errors: () => [...errors],
    enqueue: (...steps) => planner.enqueue(...steps),
    scriptFor: (promptSubstring, steps) => planner.scriptFor(promptSubstring, steps),
    setUsage: (next) => {
      usage = { ...next };
    },
    setSummary: (next) => {
      summary = next;
    },
    waitForRequest: async (predicate, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = recorded.find(predicate);
        if (found !== undefined) return found;
        if (Date.now() > deadline)
          throw new Error(`mock: no matching request within ${timeoutMs} ms (${recorded.length} recorded)`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseJson(raw: string): MessagesBody | undefined {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw) as MessagesBody;
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": "req_mock" });
  res.end(JSON.stringify(value));
}

function sendSse(res: ServerResponse, message: Message): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": "req_mock" });
  res.end(messageEvents(message).map(formatSse).join(""));
}
