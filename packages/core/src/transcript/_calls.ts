import type { Collector, CollectorRun, FileReading, ScanContext, ToolCall, ToolResult } from "./_collector.ts";
import { needle } from "./candidates.ts";
import { type Conversation, conversationCollector } from "./conversation.ts";
import type { TranscriptFacts } from "./facts.ts";

/** Tools that change a file: their calls that succeed are the session's file changes (or its plans). */
export const FILE_TOOLS: ReadonlySet<string> = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
const SUBAGENT_TOOLS = new Set(["Task", "Agent"]);
// A batch's results are written before the next response: calls of an earlier response that got no error
// succeeded. 1.x writes parallel subagents' lines interleaved, so their calls wait for the next response of
// the main chain (which waits for them). The cap is a safety net for a transcript that breaks that order.
const MAX_PENDING_CALLS = 4_096;
const MAX_TARGET_CHARS = 200;
const OWN_COMMAND = /(^|[\s/"'])carryover-state(?=["'\s]|$)/;

export interface Call extends ToolCall {
  seq: number;
  /** Shown in errors: the file, command (Bash), URL, pattern, query or subagent; else the input as JSON, cut. */
  target: string;
  /** Shared by calls that fix each other's errors: file tools one per file, others per tool and target. */
  key: string;
  /** After the last compaction. */
  recent: boolean;
}

/** Hears what became of each call: carryover's own calls are counted apart and never passed on. */
interface CallWatcher {
  succeeded?(call: Call): void;
  /** `call` is undefined when the failed call was not read (before a `maxBytes` window, or already settled). */
  failed?(call: Call | undefined, result: ToolResult): void;
}

type CallFacts = Pick<TranscriptFacts, "carryoverActivity">;

/** Which tool calls succeeded and which failed, in call order, for the collectors that build on them. */
export const callsCollector: Collector<CallFacts, Calls> = { start: (scan) => new Calls(scan) };

class Calls implements CollectorRun<CallFacts> {
  private seq = 0;
  /** Calls whose outcome is not known yet, in call order. */
  readonly pending = new Map<string, Call>();
  private readonly watchers: CallWatcher[] = [];
  private readonly conversation: Conversation;
  private ownFileChanges = 0;
  private ownCommands = 0;

  constructor(private readonly scan: ScanContext) {
    this.conversation = scan.use(conversationCollector);
    this.conversation.onCompaction(() => this.settleAll());
  }

  watch(watcher: CallWatcher): void {
    this.watchers.push(watcher);
  }

  reading(): FileReading {
    return { needles: [needle('"is_error":true', "_error")] };
  }

  nextResponse(): void {
    this.settleAll();
  }

  beginSubagent(): void {
    this.settleAll();
  }

  toolCall(call: ToolCall): void {
    // Field by field: a spread copy of `call` here kept far more of the scan alive between collections.
    const { id, tool, input, order, line, cwd, sidechain, agentId } = call;
    const { target, key } = targetAndKey(tool, input);
    this.pending.set(id, {
      id,
      tool,
      input,
      order,
      line,
      cwd,
      sidechain,
      agentId,
      seq: ++this.seq,
      target,
      key,
      recent: this.isRecent(call),
    });
    if (this.pending.size > MAX_PENDING_CALLS) {
      const [oldestId, oldest] = this.pending.entries().next().value!;
      this.pending.delete(oldestId);
      this.succeeded(oldest);
    }
  }

  toolResult(result: ToolResult): void {
    if (!result.isError) return;
    const call = this.pending.get(result.id);
    this.pending.delete(result.id);
    if (call && this.isOwn(call)) return;
    for (const watcher of this.watchers) watcher.failed?.(call, result);
  }

  finish(): CallFacts {
    this.settleAll();
    return { carryoverActivity: { fileChanges: this.ownFileChanges, commands: this.ownCommands } };
  }

  /** In the session's file, what follows the last compaction; in a subagent's, what ran after it. */
  private isRecent(call: ToolCall): boolean {
    if (call.order.file === 0) return true;
    const last = this.conversation.compactions.at(-1);
    return !last || last.atMs === null || call.order.atMs === undefined || call.order.atMs > last.atMs;
  }

  private settleAll(): void {
    for (const call of this.pending.values()) this.succeeded(call);
    this.pending.clear();
  }

  private succeeded(call: Call): void {
    if (this.isOwn(call)) return;
    for (const watcher of this.watchers) watcher.succeeded?.(call);
  }

  /** carryover's own write or command: counted apart, never the session's work. */
  private isOwn(call: Call): boolean {
    if (FILE_TOOLS.has(call.tool) && this.isOwnPath(call.target)) this.ownFileChanges += 1;
    else if (call.tool === "Bash" && OWN_COMMAND.test(call.target)) this.ownCommands += 1;
    else return false;
    return true;
  }

  private isOwnPath(path: string): boolean {
    return this.scan.ownPaths.some((own) => path === own || path.startsWith(own.endsWith("/") ? own : `${own}/`));
  }
}

const TARGET_FIELDS = ["file_path", "notebook_path", "command", "url", "pattern", "query"] as const;

/** The file, command, URL, pattern, query or subagent a call is about; null when its input names none. */
function namedTarget(tool: string, input: Record<string, unknown>): string | null {
  for (const field of TARGET_FIELDS) {
    const value = input[field];
    if (typeof value === "string" && value) return value;
  }
  if (SUBAGENT_TOOLS.has(tool) && typeof input.description === "string" && input.description) return input.description;
  return null;
}

/** What a call is about, as shown and as matched: an input that names nothing, as JSON (cut where shown). */
function targetAndKey(tool: string, input: Record<string, unknown>): Pick<Call, "target" | "key"> {
  const named = namedTarget(tool, input);
  const about = named ?? JSON.stringify(input);
  const target = named === null && about.length > MAX_TARGET_CHARS ? `${about.slice(0, MAX_TARGET_CHARS)}…` : about;
  return { target, key: `${FILE_TOOLS.has(tool) ? "file" : tool}\0${about}` };
}
