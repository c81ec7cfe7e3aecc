import { type Check, type CommandChecks, commandChecks, covers } from "./_command-check.ts";
import { userText } from "./_request.ts";
import { summaryBody } from "./_summary.ts";
import { WorkerLog } from "./_workers.ts";
import type { Activity, CompactionRecord, TaskItem, TodoItem, ToolError, TranscriptFacts } from "./facts.ts";
import { parseTranscriptLine, type TranscriptLine } from "./line.ts";

const FILE_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
const SUBAGENT_TOOLS = new Set(["Task", "Agent"]);
// A batch's results are written before the next response: calls of an earlier response that got no error
// succeeded. 1.x writes parallel subagents' lines interleaved, so their calls wait for the next response of
// the main chain (which waits for them). The cap is a safety net for a transcript that breaks that order.
const MAX_PENDING_CALLS = 4_096;
const MAX_ENTRIES = 1_000;
const MAX_MESSAGE_CHARS = 500;
const MAX_TARGET_CHARS = 200;
// Passes remembered, for failures read later from another file (a subagent's) to be matched against.
const MAX_PASSES_PER_KEY = 16;
const MAX_BASH_PASSES = 2_000;
const MAX_CACHED_CHECKS = 256;
const DEFAULT_PLAN_PATH = /[\\/]\.claude[\\/]plans[\\/][^\\/]+$/;
const OWN_COMMAND = /(^|[\s/"'])carryover-state(?=["'\s]|$)/;

/** When a call happened: responses are ordered within one file; across files only time orders them. */
interface Order {
  file: number;
  response: number;
  atMs: number | undefined;
}

interface Call {
  seq: number;
  order: Order;
  line: number | undefined;
  tool: string;
  /** Shown in errors: the file, command (Bash), URL, pattern, query or subagent; else the input as JSON, cut. */
  target: string;
  /** Calls that fix each other's errors: file tools share one key per file, others per tool and target. */
  key: string;
  cwd: string | undefined;
  sidechain: boolean;
  /** After the last compaction. */
  recent: boolean;
  todos?: TodoItem[];
  subject?: string;
  taskId?: string;
  status?: string;
}

interface OpenError {
  error: ToolError;
  order: Order;
  /** What a Bash failure was about (its last step); null for other tools. */
  check: Check | null;
  /** The tool refused the call's input (InputValidationError): the next call of the tool that runs fixes it. */
  malformed: boolean;
}

type Block = Record<string, unknown>;

export interface CollectorOptions {
  /** Where plan files live (`plansDir(env)`), besides any `.claude/plans/` directory. */
  plansDir?: string | undefined;
  /** Files and directories whose changes are carryover's own (state file, changes log, memory). */
  ownPaths?: readonly string[] | undefined;
  /** Subagents' transcripts will be read after the session's: keep what their failures may be fixed by. */
  subagentsFollow?: boolean | undefined;
  /** 2.x subagents' own transcripts by agentId, named on the agents that ran them. */
  subagentTranscripts?: ReadonlyMap<string, string> | undefined;
}

class ActivityLog {
  readonly files = new Map<string, { path: string; tools: Set<string>; count: number }>();
  readonly commands = new Map<
    string,
    { command: string; failed: boolean; runs: number; failures: number; lastSeq: number }
  >();
  readonly errors: ToolError[] = [];
  dropped = 0;

  activity(): Activity {
    return {
      filesChanged: [...this.files.values()].map(({ path, tools, count }) => ({ path, tools: [...tools], count })),
      commands: [...this.commands.values()].map(({ command, failed, runs, failures }) => ({
        command,
        failed,
        runs,
        failures,
      })),
      errors: [...this.errors],
    };
  }

  fileChanged(path: string, tool: string): void {
    const entry = this.files.get(path);
    if (entry) {
      entry.tools.add(tool);
      entry.count += 1;
      return;
    }
    this.files.set(path, { path, tools: new Set([tool]), count: 1 });
    this.cap(this.files);
  }

  commandRun(command: string, seq: number, failed: boolean): void {
    let entry = this.commands.get(command);
    if (!entry) {
      entry = { command, failed, runs: 0, failures: 0, lastSeq: seq };
      this.commands.set(command, entry);
      this.cap(this.commands);
    }
    entry.runs += 1;
    if (failed) entry.failures += 1;
    // Successes are confirmed later than failures, so the latest run is decided by call order.
    if (seq >= entry.lastSeq) {
      entry.lastSeq = seq;
      entry.failed = failed;
    }
  }

  errored(error: ToolError): void {
    this.errors.push(error);
    if (this.errors.length > MAX_ENTRIES) {
      this.errors.shift();
      this.dropped += 1;
    }
  }

  private cap(map: Map<string, unknown>): void {
    if (map.size <= MAX_ENTRIES) return;
    map.delete(map.keys().next().value!);
    this.dropped += 1;
  }
}

/**
 * Turns parsed transcript lines, in file order, into TranscriptFacts: the session's file first, then each
 * subagent's (`beginSubagent`). Decides by each line's `type`.
 */
export class TranscriptCollector {
  private seq = 0;
  private file = 0;
  private agentId: string | undefined;
  private response = 0;
  private responseId = "";
  private readonly pending = new Map<string, Call>();
  private readonly session = new ActivityLog();
  private recent = new ActivityLog();
  private readonly open = new Map<string, OpenError[]>();
  private readonly openChecks = new Map<string, OpenError[]>();
  private readonly openMalformed = new Map<string, OpenError[]>();
  private readonly passes = new Map<string, Order[]>();
  private readonly bashPasses: Array<{ command: string; cwd: string | undefined; order: Order }> = [];
  private readonly checkCache = new Map<string, CommandChecks>();
  private readonly toolPasses = new Map<string, Order[]>();
  private todos: { seq: number; items: TodoItem[] } | null = null;
  private readonly tasks = new Map<string, TaskItem>();
  private readonly plans = new Set<string>();
  private lastRequest: string | null = null;
  /** A slash command that may yet turn out to be local (its output follows), and the request before it. */
  private command: { text: string; before: string | null } | null = null;
  private planMode = false;
  private readonly compactions: CompactionRecord[] = [];
  /** A boundary whose summary line has not come yet. */
  private awaitingSummary: CompactionRecord | null = null;
  /** Byte offsets of summary lines that had no boundary, for their preTokens. */
  readonly boundarylessAt = new Map<CompactionRecord, number>();
  private ownFileChanges = 0;
  private ownCommands = 0;
  private subagentFiles = 0;
  private badLines = 0;
  readonly workers = new WorkerLog();

  constructor(private readonly options: CollectorOptions) {}

  /** The lines that follow are a subagent's own transcript (2.x). */
  beginSubagent(agentId: string): void {
    this.settleAll();
    this.workers.nextFile();
    this.file += 1;
    this.subagentFiles += 1;
    this.agentId = agentId;
    this.responseId = "";
  }

  line(text: string, lineNumber: number | undefined, offset: number): void {
    const line = parseTranscriptLine(text);
    if (line === null) {
      this.badLines += 1;
      return;
    }
    if (line.type === "assistant") this.assistant(line, lineNumber);
    else if (line.type === "user") this.user(line, lineNumber, offset);
    else if (line.type === "system") this.system(line, lineNumber);
    else if (line.type === "permission-mode") this.mode(line.permissionMode ?? line.mode);
    else if (line.type === "attachment") this.attachment(line);
    else if (line.type === "queue-operation" && line.operation === "enqueue" && typeof line.content === "string") {
      this.workers.notified(line.content, timeOf(line));
    }
  }

  finish(): Omit<TranscriptFacts, "skipped" | "bytesRead"> & { badLines: number; droppedEntries: number } {
    this.settleAll();
    this.workers.finish();
    const last = this.compactions.at(-1) ?? null;
    return {
      ...this.session.activity(),
      since: { ...this.recent.activity(), compaction: last },
      todos: this.todos?.items ?? null,
      tasks: [...this.tasks.values()],
      plansWritten: [...this.plans],
      lastUserRequest: this.lastRequest,
      planMode: this.planMode,
      compactions: this.compactions,
      workers: this.workers.list(this.options.subagentTranscripts ?? new Map()),
      subagentFiles: this.subagentFiles,
      carryoverActivity: { fileChanges: this.ownFileChanges, commands: this.ownCommands },
      badLines: this.badLines,
      droppedEntries: this.session.dropped + this.workers.dropped,
    };
  }

  /** A TaskCreate call has not met its result yet (the result carries the task's id). */
  awaitsTaskId(): boolean {
    for (const call of this.pending.values()) if (call.tool === "TaskCreate" && call.taskId === undefined) return true;
    return false;
  }

  private get inSubagent(): boolean {
    return this.file > 0;
  }

  private assistant(line: TranscriptLine, lineNumber: number | undefined): void {
    const content = line.message?.content;
    if (!Array.isArray(content)) return;
    const messageId = typeof line.message?.id === "string" ? line.message.id : "";
    const sidechain = line.isSidechain === true && !this.inSubagent;
    const cwd = typeof line.cwd === "string" ? line.cwd : undefined;
    const atMs = timeOf(line);
    for (const block of content as Block[]) {
      if (block?.type !== "tool_use" || typeof block.id !== "string" || typeof block.name !== "string") continue;
      if (!sidechain && (messageId !== this.responseId || !messageId)) this.nextResponse(messageId);
      else if (sidechain && messageId !== this.responseId) {
        // A subagent's response: ordered, but it settles nothing (see MAX_PENDING_CALLS).
        this.response += 1;
        this.responseId = messageId;
      }
      this.call(block.id, block.name, isObject(block.input) ? block.input : {}, {
        sidechain,
        cwd,
        atMs,
        line: lineNumber,
      });
    }
  }

  private nextResponse(messageId: string): void {
    this.settleAll();
    this.workers.movedOn();
    this.response += 1;
    this.responseId = messageId;
  }

  private call(
    id: string,
    tool: string,
    input: Block,
    at: { sidechain: boolean; cwd?: string | undefined; atMs?: number | undefined; line?: number | undefined },
  ): void {
    const target = targetOf(tool, input);
    const key = `${FILE_TOOLS.has(tool) ? "file" : tool}\0${targetKeyOf(tool, input)}`;
    const order = { file: this.file, response: this.response, atMs: at.atMs };
    this.workers.called(id, tool, input, { atMs: at.atMs, line: at.line, agentId: this.agentId });
    const call: Call = {
      seq: ++this.seq,
      order,
      line: at.line,
      tool,
      target,
      key,
      cwd: at.cwd,
      sidechain: at.sidechain,
      recent: this.isRecent(at.atMs),
    };
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

  /** In the session's file, what follows the last compaction; in a subagent's, what ran after it. */
  private isRecent(atMs: number | undefined): boolean {
    if (!this.inSubagent) return true;
    const last = this.compactions.at(-1);
    return !last || last.atMs === null || atMs === undefined || atMs > last.atMs;
  }

  private user(line: TranscriptLine, lineNumber: number | undefined, offset: number): void {
    const content = line.message?.content;
    const blocks = Array.isArray(content) ? (content as Block[]) : [];
    let toolResults = false;
    for (const block of blocks) {
      if (block?.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      toolResults = true;
      const atMs = timeOf(line);
      this.workers.resulted(
        block.tool_use_id,
        block.is_error === true,
        textOf(block.content),
        line.toolUseResult,
        atMs,
      );
      if (block.is_error === true) this.failed(block.tool_use_id, block.content, timeOf(line));
      else this.taskCreated(block.tool_use_id, line.toolUseResult);
    }
    if (!toolResults && this.workers.active) {
      const text = textOf(content);
      if (text.includes("<task-notification>")) this.workers.notified(text, timeOf(line));
    }
    if (toolResults || this.inSubagent || line.isSidechain === true) return;
    if (line.isCompactSummary === true) {
      this.summary(line, lineNumber, offset);
      return;
    }
    if (line.isMeta === true || line.isVisibleInTranscriptOnly === true) return;
    if (typeof line.permissionMode === "string") this.mode(line.permissionMode);
    this.userText(textOf(content));
  }

  private attachment(line: TranscriptLine): void {
    const attachment = line.attachment;
    if (!attachment || !this.workers.active) return;
    if (attachment.type === "queued_command" && typeof attachment.prompt === "string") {
      this.workers.notified(attachment.prompt, timeOf(line));
    } else if (attachment.type === "task_status") this.workers.taskStatus(attachment as Block, timeOf(line));
    else if (attachment.type === "session_cron_carry") this.workers.cronsCarried(attachment.tasks, timeOf(line));
  }

  private system(line: TranscriptLine, lineNumber: number | undefined): void {
    if (!this.inSubagent && line.subtype === "compact_boundary") this.boundary(line, lineNumber);
  }

  private userText(text: string): void {
    const read = userText(text);
    if (read.kind === "local-output") {
      if (this.command) this.lastRequest = this.command.before;
      this.command = null;
      return;
    }
    if (read.kind === "none") return;
    this.awaitingSummary = null;
    this.command = read.kind === "command" ? { text: read.text, before: this.lastRequest } : null;
    this.lastRequest = read.text;
  }

  private taskCreated(id: string, result: unknown): void {
    const call = this.pending.get(id);
    const task = isObject(result) && isObject(result.task) ? result.task : null;
    if (call?.tool === "TaskCreate" && task && (typeof task.id === "string" || typeof task.id === "number"))
      call.taskId = String(task.id);
  }

  private failed(id: string, content: unknown, atMs: number | undefined): void {
    const call = this.pending.get(id);
    this.pending.delete(id);
    if (call && this.isOwn(call)) return;
    const message = errorText(content);
    const error: ToolError = { tool: call?.tool ?? "unknown", target: call?.target ?? "", message, resolved: false };
    if (atMs !== undefined) error.atMs = atMs;
    if (call?.line !== undefined) error.line = call.line;
    if (this.agentId) error.agentId = this.agentId;
    this.session.errored(error);
    if (call?.recent ?? true) this.recent.errored(error);
    if (!call) return;
    if (call.tool === "Bash") this.commandRun(call, true);
    const check = call.tool === "Bash" ? this.checksOf(call.target, call.cwd).last : null;
    const open: OpenError = { error, order: call.order, check, malformed: message.includes("InputValidationError") };
    if (this.resolvedByEarlierPass(call, open)) return;
    push(this.open, call.key, open);
    if (check) push(this.openChecks, check.key, open);
    if (open.malformed) push(this.openMalformed, call.tool, open);
  }

  private succeeded(call: Call): void {
    if (this.isOwn(call)) return;
    if (FILE_TOOLS.has(call.tool)) this.fileChanged(call);
    else if (call.tool === "Bash") this.commandRun(call, false);
    else if (call.tool === "TodoWrite") this.todoWritten(call);
    else if (call.tool === "TaskCreate") this.taskCreate(call);
    else if (call.tool === "TaskUpdate") this.taskUpdate(call);
    this.resolveBy(call);
  }

  /** carryover's own write or command: counted apart, never the session's work. */
  private isOwn(call: Call): boolean {
    if (FILE_TOOLS.has(call.tool) && this.isOwnPath(call.target)) this.ownFileChanges += 1;
    else if (call.tool === "Bash" && OWN_COMMAND.test(call.target)) this.ownCommands += 1;
    else return false;
    return true;
  }

  private isOwnPath(path: string): boolean {
    return (this.options.ownPaths ?? []).some(
      (own) => path === own || path.startsWith(own.endsWith("/") ? own : `${own}/`),
    );
  }

  private todoWritten(call: Call): void {
    if (call.sidechain || this.inSubagent || !call.todos) return;
    if (this.todos === null || call.seq > this.todos.seq) this.todos = { seq: call.seq, items: call.todos };
  }

  private fileChanged(call: Call): void {
    if (!call.target) return;
    if (this.isPlanPath(call.target)) {
      this.plans.add(call.target);
      return;
    }
    this.session.fileChanged(call.target, call.tool);
    if (call.recent) this.recent.fileChanged(call.target, call.tool);
  }

  private commandRun(call: Call, failed: boolean): void {
    if (!call.target) return;
    this.session.commandRun(call.target, call.seq, failed);
    if (call.recent) this.recent.commandRun(call.target, call.seq, failed);
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

  /** Resolves the open errors `call`, a success, fixes, and remembers it for failures read later from another file. */
  private resolveBy(call: Call): void {
    const resolve = (list: Map<string, OpenError[]>, key: string, fixes: (open: OpenError) => boolean, how: string) => {
      const open = list.get(key);
      if (!open) return;
      const still = open.filter((entry) => {
        if (entry.error.resolved) return false;
        if (!isLater(call.order, entry.order) || !fixes(entry)) return true;
        entry.error.resolved = true;
        entry.error.resolution = how;
        return false;
      });
      if (still.length > 0) list.set(key, still);
      else list.delete(key);
    };
    resolve(this.open, call.key, () => true, resolutionOf(call));
    // Reading a command is paid only while a failed check is open.
    if (call.tool === "Bash" && this.openChecks.size > 0) {
      for (const check of this.checksOf(call.target, call.cwd).vouched) {
        resolve(
          this.openChecks,
          check.key,
          (open) => open.check !== null && covers(check, open.check),
          CHECK_RESOLUTION,
        );
      }
    }
    resolve(this.openMalformed, call.tool, (open) => open.malformed, MALFORMED_RESOLUTION);
    if (!this.options.subagentsFollow) return;
    remember(this.passes, call.key, call.order);
    remember(this.toolPasses, call.tool, call.order);
    if (call.tool === "Bash") {
      this.bashPasses.push({ command: call.target, cwd: call.cwd, order: call.order });
      if (this.bashPasses.length > MAX_BASH_PASSES) this.bashPasses.shift();
    }
  }

  /** A failure read after a later success from another file (a subagent's transcript read after the session's). */
  private resolvedByEarlierPass(call: Call, open: OpenError): boolean {
    // The session's own file is read first: only a subagent's failure can come after a pass that is later.
    if (!this.inSubagent) return false;
    const later = (orders: readonly Order[] | undefined) =>
      orders?.some((order) => isLater(order, open.order)) ?? false;
    let how: string | null = null;
    if (later(this.passes.get(call.key))) how = resolutionOf(call);
    else if (open.check && this.passedLater(open.check, open.order)) how = CHECK_RESOLUTION;
    else if (open.malformed && later(this.toolPasses.get(call.tool))) how = MALFORMED_RESOLUTION;
    if (how === null) return false;
    open.error.resolved = true;
    open.error.resolution = how;
    return true;
  }

  /** A Bash pass read earlier but run later (another file's) vouches for `check`. */
  private passedLater(check: Check, order: Order): boolean {
    return this.bashPasses.some(
      (pass) =>
        isLater(pass.order, order) &&
        this.checksOf(pass.command, pass.cwd).vouched.some((passed) => covers(passed, check)),
    );
  }

  private checksOf(command: string, cwd: string | undefined): CommandChecks {
    const key = `${cwd ?? ""}\0${command}`;
    let checks = this.checkCache.get(key);
    if (!checks) {
      checks = commandChecks(command, cwd);
      this.checkCache.set(key, checks);
      if (this.checkCache.size > MAX_CACHED_CHECKS) this.checkCache.delete(this.checkCache.keys().next().value!);
    }
    return checks;
  }

  private boundary(line: TranscriptLine, lineNumber: number | undefined): void {
    const meta = line.compactMetadata ?? {};
    const record: CompactionRecord = {
      line: lineNumber ?? null,
      boundary: true,
      trigger: typeof meta.trigger === "string" ? meta.trigger : "unknown",
      preTokens: tokens(meta.preTokens),
      postTokens: tokens(meta.postTokens),
      atMs: timeOf(line) ?? null,
      summary: null,
    };
    this.compacted(record);
    this.awaitingSummary = record;
  }

  private summary(line: TranscriptLine, lineNumber: number | undefined, offset: number): void {
    const text = summaryBody(textOf(line.message?.content)) || null;
    if (this.awaitingSummary) {
      this.awaitingSummary.summary = text;
      this.awaitingSummary = null;
      return;
    }
    // 1.0.5x to 1.0.7x wrote no boundary: the summary line is the compaction.
    const record: CompactionRecord = {
      line: lineNumber ?? null,
      boundary: false,
      trigger: "unknown",
      preTokens: null,
      postTokens: null,
      atMs: timeOf(line) ?? null,
      summary: text,
    };
    this.compacted(record);
    this.boundarylessAt.set(record, offset);
  }

  private compacted(record: CompactionRecord): void {
    this.settleAll();
    this.compactions.push(record);
    this.recent = new ActivityLog();
  }

  private mode(value: unknown): void {
    if (typeof value === "string") this.planMode = value === "plan";
  }

  private settleAll(): void {
    for (const call of this.pending.values()) this.succeeded(call);
    this.pending.clear();
  }

  /** In the configured plans directory, or any `.claude/plans/` (a session resumed under another home). */
  private isPlanPath(path: string): boolean {
    const dir = this.options.plansDir;
    return (
      (dir !== undefined && dir !== "" && path.startsWith(dir.endsWith("/") ? dir : `${dir}/`)) ||
      DEFAULT_PLAN_PATH.test(path)
    );
  }
}

const CHECK_RESOLUTION = "a later run of the same check over the same or a wider target passed";
const MALFORMED_RESOLUTION = "the next call of the same tool ran";

function isLater(a: Order, b: Order): boolean {
  if (a.file === b.file) return a.response > b.response;
  return a.atMs !== undefined && b.atMs !== undefined && a.atMs > b.atMs;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Keeps the latest pass per file: all that `isLater` needs (calls settle in call order). */
function remember(map: Map<string, Order[]>, key: string, order: Order): void {
  const orders = map.get(key) ?? [];
  const index = orders.findIndex((known) => known.file === order.file);
  if (index === -1) orders.push(order);
  else orders[index] = order;
  if (orders.length > MAX_PASSES_PER_KEY) orders.shift();
  map.set(key, orders);
}

function isObject(value: unknown): value is Block {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const TARGET_FIELDS = ["file_path", "notebook_path", "command", "url", "pattern", "query"] as const;

function namedTarget(tool: string, input: Block): string | null {
  for (const field of TARGET_FIELDS) {
    const value = input[field];
    if (typeof value === "string" && value) return value;
  }
  if (SUBAGENT_TOOLS.has(tool) && typeof input.description === "string" && input.description) return input.description;
  return null;
}

function targetOf(tool: string, input: Block): string {
  const named = namedTarget(tool, input);
  if (named !== null) return named;
  const json = JSON.stringify(input);
  return json.length > MAX_TARGET_CHARS ? `${json.slice(0, MAX_TARGET_CHARS)}…` : json;
}

function targetKeyOf(tool: string, input: Block): string {
  return namedTarget(tool, input) ?? JSON.stringify(input);
}

function todoItems(list: unknown[]): TodoItem[] {
  return list.filter(isObject).map((item) => ({
    content: typeof item.content === "string" ? item.content : "",
    status: typeof item.status === "string" ? item.status : "pending",
  }));
}

function tokens(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function timeOf(line: TranscriptLine): number | undefined {
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

// A long output keeps its start and its end, where tools print their verdict ("Found 8 errors.", "2 failing").
const MESSAGE_TAIL_CHARS = 200;

function errorText(content: unknown): string {
  const text = textOf(content)
    .replace(/<\/?tool_use_error>/g, "")
    .trim();
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  const head = text.slice(0, MAX_MESSAGE_CHARS - MESSAGE_TAIL_CHARS).trimEnd();
  return `${head}\n…\n${text.slice(-MESSAGE_TAIL_CHARS).trimStart()}`;
}

function resolutionOf(call: Call): string {
  if (call.tool === "Bash") return "the same command succeeded later";
  if (FILE_TOOLS.has(call.tool)) return `a later ${call.tool} of the same file succeeded`;
  return `a later ${call.tool} on the same target succeeded`;
}
