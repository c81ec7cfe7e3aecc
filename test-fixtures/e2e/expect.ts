import { requestText } from "../mock-api/text.ts";
import type { RecordedRequest } from "../mock-api/types.ts";

/** Throws unless the flattened request (system, messages, role:"system" hook contexts, tool results) holds `text`. */
export function expectTextInRequest(request: RecordedRequest | undefined, text: string): void {
  if (request === undefined) throw new Error(`expected a request containing ${JSON.stringify(text)}, got no request`);
  if (!requestText(request).includes(text)) {
    throw new Error(
      `request #${request.n} (${request.kind}) does not contain ${JSON.stringify(text)}${describe(request)}`,
    );
  }
}

export function expectNoTextInRequest(request: RecordedRequest | undefined, text: string): void {
  if (request === undefined) throw new Error(`expected a request without ${JSON.stringify(text)}, got no request`);
  const flat = requestText(request);
  const at = flat.indexOf(text);
  if (at >= 0) {
    const around = flat.slice(Math.max(0, at - 200), at + text.length + 200);
    throw new Error(`request #${request.n} (${request.kind}) contains ${JSON.stringify(text)}: …${around}…`);
  }
}

/** The compaction request at `index` (negative counts from the end: -1 = the last one). */
export function compactionRequest(requests: RecordedRequest[], index = -1): RecordedRequest {
  const compactions = requests.filter((request) => request.kind === "compaction");
  const found = compactions.at(index);
  if (found === undefined)
    throw new Error(`no compaction request #${index}: the mock saw ${compactions.length} (${summarize(requests)})`);
  return found;
}

/** The first main request sent after the compaction request at `index` (default: the last compaction). */
export function firstMainAfterCompaction(requests: RecordedRequest[], index = -1): RecordedRequest {
  const compaction = compactionRequest(requests, index);
  const found = requests.find((request) => request.kind === "main" && request.n > compaction.n);
  if (found === undefined)
    throw new Error(`no main request after compaction #${compaction.n} (${summarize(requests)})`);
  return found;
}

export function lastMainRequest(requests: RecordedRequest[]): RecordedRequest {
  const found = requests.filter((request) => request.kind === "main").at(-1);
  if (found === undefined) throw new Error(`no main request (${summarize(requests)})`);
  return found;
}

/** `#1 main, #2 compaction, …` for error messages. */
function summarize(requests: RecordedRequest[]): string {
  return requests.map((request) => `#${request.n} ${request.kind}`).join(", ") || "no requests";
}

function describe(request: RecordedRequest): string {
  const flat = requestText(request);
  return `; its ${flat.length} chars end with:\n${flat.slice(-1500)}`;
}
