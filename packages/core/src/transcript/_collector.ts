import type { CompactionRecord, FileChange, TaskItem, TodoItem, ToolError, TranscriptFacts } from "./facts.ts";

const FILE_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
// A batch's results are written before the next response: calls of an earlier response that got no
// error succeeded. The cap is a safety net for a transcript that breaks that order.
const MAX_PENDING_CALLS = 64;
const MAX_ENTRIES = 1_000;
const MAX_MESSAGE_CHARS = 500;
const DEFAULT_PLAN_PATH = /[\\/]\.claude[\\/]plans[\\/][^\\/]+$/;

interface Call {
  seq: number;
  tool: string;
  target: string;
  /** Calls that can fix each other's errors: file tools share one key per file, others per tool and target. */
  key: string;
  sidechain: boolean;
  todos?: TodoItem[];
  subject?: string;
  taskId?: string;
  status?: string;
}

interface OpenError {
  error: ToolError;
  seq: number;
}

interface RawLine {
  type?: unknown;
  subtype?: unknown;
  isSidechain?: unknown;
  isMeta?: unknown;
  isCompactSummary?: unknown;
  isVisibleInTranscriptOnly?: unknown;
  permissionMode?: unknown;
  mode?: unknown;
  timestamp?: unknown;
  message?: { id?: unknown; content?: unknown };
  toolUseResult?: unknown;
  compactMetadata?: { trigger?: unknown; preTokens?: unknown; postTokens?: unknown };
}

type Block = Record<string, unknown>;

export interface CollectorOptions {
  fromLastBoundary: boolean;
  /** Where plan files live; default: any `.claude/plans/` directory. */
  plansDir?: string | undefined;
}

/** Turns parsed transcript lines, in file order, into TranscriptFacts. Decides by each line's `type`. */
export class TranscriptCollector {
  private seq = 0;
  private readonly pending = new Map<string, Call>();
  /** The API response (message.id) the pending calls came in. */
  private pendingMessageId = "";
  private files = new Map<string, { path: string; tools: Set<string>; count: number }>();
  private commands = new Map<string, CommandEntry>();
  private errors: ToolError[] = [];
  private openErrors = new Map<string, OpenError[]>();
  private todos: { seq: number; items: TodoItem[] } | null = null;
  private readonly tasks = new Map<string, TaskItem>();
  private readonly plans = new Set<string>();
  private lastUserRequest: string | null = null;
  private planMode = false;
  private readonly compactions: CompactionRecord[] = [];
  private badLines = 0;
  private droppedEntries = 0;

  constructor(private readonly options: CollectorOptions) {}

  line(text: string): void {
    let line: RawLine;
    try {
      line = JSON.parse(text) as RawLine;
    } catch {
      this.badLines += 1;
      return;
    }
    if (line === null || typeof line !== "object") {
      this.badLines += 1;
      return;
    }
    if (line.type === "assistant") this.assistant(line);
    else if (line.type === "user") this.user(line);
    else if (line.type === "system" && line.subtype === "compact_boundary") this.boundary(line);
    else if (line.type === "permission-mode") this.mode(line.permissionMode ?? line.mode);
  }

  finish(): Omit<TranscriptFacts, "skipped" | "bytesRead"> & { badLines: number; droppedEntries: number } {
    this.settleAll();
    return {
      filesChanged: [...this.files.values()].map(({ path, tools, count }): FileChange => ({ path, tools: [...tools], count })),
      commands: [...this.commands.values()].map(({ command, failed, count, failures }) => ({ command, failed, count, failures })),
      errors: this.errors,
      todos: this.todos?.items ?? null,
      tasks: [...this.tasks.values()],
      plansWritten: [...this.plans],
      lastUserRequest: this.lastUserRequest,
      planMode: this.planMode,
      compactions: this.compactions,
      badLines: this.badLines,
      droppedEntries: this.droppedEntries,
    };
  }

  /** A TaskCreate call has not met its result yet (the result carries the task's id). */
  awaitsTaskId(): boolean {
    for (const call of this.pending.values()) if (call.tool === "TaskCreate" && call.taskId === undefined) return true;
    return false;
  }

  private assistant(line: RawLine): void {
    const content = line.message?.content;
    if (!Array.isArray(content)) return;
    const messageId = typeof line.message?.id === "string" ? line.message.id : "";
    for (const block of content as Block[]) {
      if (block?.type !== "tool_use" || typeof block.id !== "string" || typeof block.name !== "string") continue;
      this.call(block.id, block.name, isObject(block.input) ? block.input : {}, line.isSidechain === true, messageId);
    }
  }

  private call(id: string, tool: string, input: Block, sidechain: boolean, messageId: string): void {
    if (this.pending.size > 0 && (messageId !== this.pendingMessageId || !messageId)) this.settleAll();
    this.pendingMessageId = messageId;
    const target = targetOf(input);
    const key = `${FILE_TOOLS.has(tool) ? "file" : tool}\0${target}`;
    const call: Call = { seq: ++this.seq, tool, target, key, sidechain };
    if (tool === "TodoWrite" && Array.isArray(input.todos)) call.todos = todoItems(input.todos);
    if (tool === "TaskCreate" && typeof input.subject === "string") call.subject = input.subject;
    if (tool === "TaskUpdate") {
      if (typeof input.taskId === "string" || typeof input.taskId === "number") call.taskId = String(input.taskId);
      if (typeof input.status === "string") call.status = input.status;
      if (typeof input.subject === "string") call.subject = input.subject;
    }
    this.pending.set(id, call);
    if (this.pending.size > MAX_PENDING_CALLS) {
      const [oldestId, oldest] = this.pending.entries().next().value!;
      this.pending.delete(oldestId);
      this.succeeded(oldest);
    }
  }

  private user(line: RawLine): void {
    const content = line.message?.content;
    const blocks = Array.isArray(content) ? (content as Block[]) : [];
    let toolResults = false;
    for (const block of blocks) {
      if (block?.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      toolResults = true;
      if (block.is_error === true) this.failed(block.tool_use_id, block.content, timeOf(line));
      else this.taskCreated(block.tool_use_id, line.toolUseResult);
    }
    if (toolResults || line.isSidechain === true || line.isMeta === true) return;
    if (line.isCompactSummary === true || line.isVisibleInTranscriptOnly === true) return;
    if (typeof line.permissionMode === "string") this.mode(line.permissionMode);
    const prompt = promptText(content);
    if (prompt) this.lastUserRequest = prompt;
  }

  private taskCreated(id: string, result: unknown): void {
    const call = this.pending.get(id);
    const task = isObject(result) && isObject(result.task) ? result.task : null;
    if (call?.tool === "TaskCreate" && task && (typeof task.id === "string" || typeof task.id === "number")) call.taskId = String(task.id);
  }

  private failed(id: string, content: unknown, atMs: number | undefined): void {
    const call = this.pending.get(id);
    this.pending.delete(id);
    const error: ToolError = { tool: call?.tool ?? "unknown", target: call?.target ?? "", message: errorText(content), resolved: false };
    if (atMs !== undefined) error.atMs = atMs;
    this.errors.push(error);
    if (this.errors.length > MAX_ENTRIES) {
      this.errors.shift();
      this.droppedEntries += 1;
    }
    if (!call) return;
    const open = this.openErrors.get(call.key);
    if (open) open.push({ error, seq: call.seq });
    else this.openErrors.set(call.key, [{ error, seq: call.seq }]);
    if (call.tool === "Bash") this.commandRun(call, true);
  }

  private succeeded(call: Call): void {
    if (FILE_TOOLS.has(call.tool)) this.fileChanged(call);
    else if (call.tool === "Bash") this.commandRun(call, false);
    else if (call.tool === "TodoWrite") this.todoWritten(call);
    else if (call.tool === "TaskCreate") this.taskCreate(call);
    else if (call.tool === "TaskUpdate") this.taskUpdate(call);
    this.resolveErrors(call);
  }

  private todoWritten(call: Call): void {
    if (call.sidechain || !call.todos) return;
    if (this.todos === null || call.seq > this.todos.seq) this.todos = { seq: call.seq, items: call.todos };
  }

  private fileChanged(call: Call): void {
    if (!call.target) return;
    if (this.isPlanPath(call.target)) {
      this.plans.add(call.target);
      return;
    }
    const entry = this.files.get(call.target);
    if (entry) {
      entry.tools.add(call.tool);
      entry.count += 1;
      return;
    }
    this.files.set(call.target, { path: call.target, tools: new Set([call.tool]), count: 1 });
    this.cap(this.files);
  }

  private commandRun(call: Call, failed: boolean): void {
    if (!call.target) return;
    let entry = this.commands.get(call.target);
    if (!entry) {
      entry = { command: call.target, failed, count: 0, failures: 0, lastSeq: call.seq };
      this.commands.set(call.target, entry);
      this.cap(this.commands);
    }
    entry.count += 1;
    if (failed) entry.failures += 1;
    // Successes are confirmed later than failures, so the latest run is decided by call order.
    if (call.seq >= entry.lastSeq) {
      entry.lastSeq = call.seq;
      entry.failed = failed;
    }
  }

  private taskCreate(call: Call): void {
    // Claude Code 2.1.332 numbers a session's tasks 1, 2, 3… ("Task #1 created successfully").
    const id = call.taskId ?? String(Math.max(0, ...[...this.tasks.keys()].map(Number).filter(Number.isFinite)) + 1);
    this.tasks.set(id, { id, subject: call.subject ?? "", status: "pending" });
  }

  private taskUpdate(call: Call): void {
    if (call.taskId === undefined) return;
    if (call.status === "deleted") {
      this.tasks.delete(call.taskId);
      return;
    }
    const task = this.tasks.get(call.taskId) ?? { id: call.taskId, subject: "", status: "pending" };
    if (call.status) task.status = call.status;
    if (call.subject) task.subject = call.subject;
    this.tasks.set(call.taskId, task);
  }

  private resolveErrors(call: Call): void {
    const open = this.openErrors.get(call.key);
    if (!open) return;
    const still = open.filter((entry) => {
      if (entry.seq > call.seq) return true;
      entry.error.resolved = true;
      entry.error.resolution = resolutionOf(call);
      return false;
    });
    if (still.length > 0) this.openErrors.set(call.key, still);
    else this.openErrors.delete(call.key);
  }

  private boundary(line: RawLine): void {
    const meta = line.compactMetadata ?? {};
    this.compactions.push({
      trigger: typeof meta.trigger === "string" ? meta.trigger : "unknown",
      preTokens: typeof meta.preTokens === "number" ? meta.preTokens : 0,
      postTokens: typeof meta.postTokens === "number" ? meta.postTokens : 0,
      atMs: timeOf(line) ?? 0,
    });
    if (!this.options.fromLastBoundary) return;
    this.settleAll();
    this.files = new Map();
    this.commands = new Map();
    this.errors = [];
    this.openErrors = new Map();
  }

  private mode(value: unknown): void {
    if (typeof value === "string") this.planMode = value === "plan";
  }

  private settleAll(): void {
    for (const call of this.pending.values()) this.succeeded(call);
    this.pending.clear();
  }

  private isPlanPath(path: string): boolean {
    const dir = this.options.plansDir;
    if (dir) return path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
    return DEFAULT_PLAN_PATH.test(path);
  }

  private cap(map: Map<string, unknown>): void {
    if (map.size <= MAX_ENTRIES) return;
    map.delete(map.keys().next().value!);
    this.droppedEntries += 1;
  }
}

interface CommandEntry {
  command: string;
  failed: boolean;
  count: number;
  failures: number;
  lastSeq: number;
}

function isObject(value: unknown): value is Block {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const TARGET_FIELDS = ["file_path", "notebook_path", "command", "pattern", "path", "url", "query"] as const;

function targetOf(input: Block): string {
  for (const field of TARGET_FIELDS) {
    const value = input[field];
    if (typeof value === "string" && value) return value;
  }
  return "";
}

function todoItems(list: unknown[]): TodoItem[] {
  return list.filter(isObject).map((item) => ({
    content: typeof item.content === "string" ? item.content : "",
    status: typeof item.status === "string" ? item.status : "pending",
  }));
}

function timeOf(line: RawLine): number | undefined {
  const atMs = typeof line.timestamp === "string" ? Date.parse(line.timestamp) : Number.NaN;
  return Number.isFinite(atMs) ? atMs : undefined;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Block[])
    .filter((block) => block?.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string)
    .join("\n");
}

function errorText(content: unknown): string {
  const text = textOf(content)
    .replace(/<\/?tool_use_error>/g, "")
    .trim();
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

// Lines Claude Code writes as user turns that nobody typed: slash-command echoes, their output, bash mode.
const NOT_TYPED = /^<(command-name|command-message|local-command-|bash-input|bash-stdout|bash-stderr|task-notification)/;

function promptText(content: unknown): string | null {
  const text = textOf(content)
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "")
    .trim();
  if (!text || NOT_TYPED.test(text) || text.startsWith("[Request interrupted")) return null;
  return text;
}

function resolutionOf(call: Call): string {
  if (call.tool === "Bash") return "the same command succeeded later";
  if (FILE_TOOLS.has(call.tool)) return `a later ${call.tool} of the same file succeeded`;
  return `a later ${call.tool} on the same target succeeded`;
}
