import type { DynamicNeedle, Needle } from "./candidates.ts";
import type { TranscriptLine } from "./line.ts";

/**
 * One concern of the scan (the conversation, the workers, …): what it looks for in the bytes and the facts it makes
 * of the lines. A reader passes the ones it needs to `scanTranscriptFor`, so a bundle holds only those.
 */
export interface Collector<Facts extends object, Run extends CollectorRun<Facts> = CollectorRun<Facts>> {
  /** Its state for one scan; `scan.use` starts the collectors it builds on. */
  start(scan: ScanContext): Run;
}

export interface ScanContext {
  /** The session's own transcript. */
  readonly path: string;
  /** Where plan files live (`plansDir(env)`), besides any `.claude/plans/` directory. */
  readonly plansDir: string | undefined;
  /** Files and directories whose changes are carryover's own (state file, changes log, memory). */
  readonly ownPaths: readonly string[];
  /** 2.x subagents' own transcripts by agentId, read after the session's. */
  readonly subagentTranscripts: ReadonlyMap<string, string>;
  /** The run of `collector` in this scan, started on first use: every collector that uses it hears the same lines. */
  use<Run extends CollectorRun<object>>(collector: Collector<object, Run>): Run;
}

/** A collector's state for one scan. The scan calls it in file order; each line is parsed once for all of them. */
export interface CollectorRun<Facts extends object> {
  /** Before each file: what its lines hold, for them to be decoded at all. */
  reading?(): FileReading;
  /** The main chain's next response begins: an earlier response's calls that got no error succeeded. */
  nextResponse?(): void;
  toolCall?(call: ToolCall): void;
  toolResult?(result: ToolResult): void;
  /** Every line that is neither an assistant's nor a user line with tool results. */
  line?(line: TranscriptLine, at: LineAt): void;
  /** The lines that follow are a subagent's own transcript (2.x). */
  beginSubagent?(): void;
  /** After the last file, once the collectors it uses have finished. */
  finish(): Facts;
  /** Oldest entries dropped to keep each list within its cap. */
  readonly dropped?: number;
}

export interface FileReading {
  needles?: Array<Needle | DynamicNeedle>;
  /** Sees the bytes of each tool_use block (where `"type":"tool_use"` starts) before any line is decoded. */
  onToolUse?(region: Buffer, at: number): void;
}

/** When a call happened: responses are ordered within one file; across files only time orders them. */
export interface Order {
  /** 0 for the session's own file, then each subagent's. */
  file: number;
  response: number;
  atMs: number | undefined;
}

export type Block = Record<string, unknown>;

export interface ToolCall {
  id: string;
  tool: string;
  input: Block;
  order: Order;
  /** 1-based line in its transcript, when counted. */
  line: number | undefined;
  cwd: string | undefined;
  /** A subagent's call written into the session's own file (1.x). */
  sidechain: boolean;
  /** The 2.x subagent whose transcript holds it. */
  agentId: string | undefined;
}

export interface ToolResult {
  /** The call's id. */
  id: string;
  isError: boolean;
  content: unknown;
  /** The line's `toolUseResult`: what the tool returned, as data. */
  result: unknown;
  atMs: number | undefined;
  /** The 2.x subagent whose transcript holds it. */
  agentId: string | undefined;
}

export interface LineAt {
  /** 1-based, when counted. */
  line: number | undefined;
  /** Byte offset of the line in its file. */
  offset: number;
  atMs: number | undefined;
  /** 0 for the session's own file, then each subagent's. */
  file: number;
}
