/** One scripted assistant reply. A step with `tool`/`tools` ends with stop_reason "tool_use". */
export interface Step {
  text?: string;
  tool?: string;
  input?: Record<string, unknown>;
  /** Several tool_use blocks in one reply (a parallel batch). */
  tools?: Array<{ tool: string; input?: Record<string, unknown> }>;
  input_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  output_tokens?: number;
  /** Waits this long before answering (to observe Claude Code while a request is in flight). */
  delay_ms?: number;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export interface Message {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: ContentBlock[];
  stop_reason: "end_turn" | "tool_use";
  stop_sequence: null;
  usage: Usage;
}

/** Loose shape of a Messages API request body: only what the mock reads. */
export interface MessagesBody {
  model?: string;
  system?: string | Array<{ type: string; text?: string }>;
  messages?: RequestMessage[];
  tools?: unknown[];
  max_tokens?: number;
  stream?: boolean;
  [key: string]: unknown;
}

export interface RequestMessage {
  role: "user" | "assistant" | "system";
  content: string | RequestBlock[];
}

export interface RequestBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | RequestBlock[];
  [key: string]: unknown;
}

export type RequestKind = "main" | "compaction" | "side" | "count_tokens" | "other";

export interface RecordedRequest {
  /** 1-based arrival order over all paths. */
  n: number;
  kind: RequestKind;
  method: string;
  /** Path without the query string. */
  path: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or undefined when there was none or it was not JSON. */
  body: MessagesBody | undefined;
  /** What the mock answered for /v1/messages requests. */
  reply?: Message;
}
