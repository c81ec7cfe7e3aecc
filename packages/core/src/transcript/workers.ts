import type {
  Block,
  Collector,
  CollectorRun,
  FileReading,
  LineAt,
  ScanContext,
  ToolCall,
  ToolResult,
} from "./_collector.ts";
import { isObject, tagText, textOf } from "./_content.ts";
import { needle } from "./candidates.ts";
import type { TranscriptFacts, Worker, WorkerKind, WorkerState } from "./facts.ts";
import type { TranscriptLine } from "./line.ts";

type WorkerFacts = Pick<TranscriptFacts, "workers">;

/** The background shells, monitors, subagents and crons the session started, to their last state. */
export const workersCollector: Collector<WorkerFacts, Workers> = { start: (scan) => new Workers(scan) };

// Tools whose results say what became of a worker: ended (KillBash ≤ 2.0, KillShell, TaskStop), or its state
// (BashOutput ≤ 2.0, TaskOutput).
const STOP_TOOLS = new Set(["TaskStop", "KillShell", "KillBash"]);
const STATUS_TOOLS = new Set(["BashOutput", "TaskOutput"]);
const START_TOOLS = new Set(["Agent", "Task", "Monitor", "CronCreate"]);

/** Tool calls whose results the scan must decode for the workers: all of these, and `Bash` run in the background. */
const WORKER_TOOLS: ReadonlySet<string> = new Set([...START_TOOLS, ...STOP_TOOLS, ...STATUS_TOOLS, "CronDelete"]);

const MAX_WORKERS = 1_000;
const MAX_PENDING = 256;
const MAX_TEXT_CHARS = 300;
// A start call the tool refused or the user declined never ran: nothing to carry.
const REFUSED = /InputValidationError|<tool_use_error>|doesn't want to (proceed|take this action)|permission|rejected/i;
const TERMINAL: ReadonlySet<WorkerState> = new Set(["completed", "failed", "killed", "stopped"]);
const LIVE: ReadonlySet<WorkerState> = new Set(["running", "scheduled", "unknown"]);
const NOTIFICATION = /<task-notification>([\s\S]*?)<\/task-notification>/g;

interface Pending {
  tool: string;
  file: number;
  /** The worker a start call creates (keyed by the call's id until its result names it). */
  worker?: Worker;
  /** The worker id a control call is about. */
  target?: string;
}

/**
 * Follows workers through a transcript (files in reading order): the call that starts one, its result (which
 * names it), and what Claude Code writes later (task notifications, post-compaction task_status and
 * session_cron_carry attachments, TaskStop/KillShell/BashOutput results).
 */
class Workers implements CollectorRun<WorkerFacts> {
  private readonly workers = new Map<string, Worker>();
  /** Every worker in call order (a result re-keys a worker but does not move it). */
  private readonly order: Worker[] = [];
  /** tool_use id → worker, for notifications that name the call and for late results. */
  private readonly byCall = new Map<string, Worker>();
  private readonly pending = new Map<string, Pending>();
  private file = 0;
  dropped = 0;

  constructor(private readonly scan: ScanContext) {}

  reading(): FileReading {
    // This chunk's worker calls (a background Bash, an Agent…), whose results are decoded: only they name the worker.
    let workerCalls: Array<{ id: string; at: number }> = [];
    const workersFrom = () => (this.active ? 0 : (workerCalls[0]?.at ?? null));
    return {
      onToolUse: (region, at) => {
        const call = workerCall(region, at);
        if (call) workerCalls.push({ id: call, at });
      },
      needles: [
        // The results of worker calls: this chunk's, and those of earlier chunks' calls still awaited.
        {
          searches: () => {
            const searches = [...this.pending.keys()].map((id) => ({ bytes: resultNeedle(id), from: 0 }));
            for (const { id, at } of workerCalls) searches.push({ bytes: resultNeedle(id), from: at });
            return searches;
          },
        },
        // What Claude Code writes about workers later: searched once one is known, or from this chunk's first call.
        needle("<task-notification>", "<task-notif", { startAt: workersFrom }),
        needle('"type":"task_status"', "task_status", { startAt: workersFrom }),
        needle('"type":"session_cron_carry"', "session_cron_carry", {
          startAt: () => {
            const from = workersFrom();
            workerCalls = [];
            return from;
          },
        }),
      ],
    };
  }

  /** Any worker or worker call seen: later lines (notifications, attachments) may concern it. */
  private get active(): boolean {
    return this.workers.size > 0 || this.pending.size > 0;
  }

  /** The lines that follow are the next file's: calls of a subagent's file left without a result never got one. */
  beginSubagent(): void {
    if (this.file > 0) this.nextResponse();
    this.file += 1;
  }

  toolCall({ id: callId, tool, input, order, line, agentId }: ToolCall): void {
    const start = this.startOf(tool, input);
    if (start) {
      const worker: Worker = {
        ...start,
        id: callId,
        state: start.kind === "cron" ? "scheduled" : "running",
        startedAtMs: order.atMs ?? null,
        endedAtMs: null,
        ...(line !== undefined ? { line } : {}),
        ...(agentId !== undefined ? { startedBy: agentId } : {}),
      };
      this.remember(callId, { tool, file: this.file, worker });
      this.add(callId, worker);
      return;
    }
    const target =
      text(input.task_id) ??
      text(input.shell_id) ??
      text(input.bash_id) ??
      (tool === "CronDelete" ? text(input.id) : null);
    if (target !== null && (WORKER_TOOLS.has(tool) || tool === "CronDelete"))
      this.remember(callId, { tool, file: this.file, target });
  }

  toolResult({ id: callId, isError, content, result, atMs }: ToolResult): void {
    const pending = this.pending.get(callId);
    if (!pending) return;
    this.pending.delete(callId);
    const outcome = isObject(result) ? result : {};
    if (pending.worker) this.started(callId, pending.worker, isError, textOf(content), outcome, atMs);
    else if (!isError && pending.target !== undefined) this.controlled(pending, outcome, atMs);
  }

  line(line: TranscriptLine, at: LineAt): void {
    if (line.type === "queue-operation") {
      if (line.operation === "enqueue" && typeof line.content === "string") this.notified(line.content, at.atMs);
      return;
    }
    if (!this.active) return;
    if (line.type === "user") {
      const text = textOf(line.message?.content);
      if (text.includes("<task-notification>")) this.notified(text, at.atMs);
      return;
    }
    const attachment = line.type === "attachment" ? line.attachment : undefined;
    if (!attachment) return;
    if (attachment.type === "queued_command" && typeof attachment.prompt === "string") {
      this.notified(attachment.prompt, at.atMs);
    } else if (attachment.type === "task_status") this.taskStatus(attachment as Block, at.atMs);
    else if (attachment.type === "session_cron_carry") this.cronsCarried(attachment.tasks, at.atMs);
  }

  /** The last file is read: a subagent's calls left without a result never got one. */
  finish(): WorkerFacts {
    if (this.file > 0) this.nextResponse();
    return { workers: this.list() };
  }

  /** The main chain's next response: start calls still without a result got none. */
  nextResponse(): void {
    for (const [callId, pending] of this.pending) {
      if (pending.file !== this.file) continue;
      this.pending.delete(callId);
      if (pending.worker?.state === "running") pending.worker.state = "unknown";
    }
  }

  /** `<task-notification>` blocks: a user line, a queued_command attachment or a queue-operation line. */
  private notified(text: string, atMs: number | undefined): void {
    for (const [, body] of text.matchAll(NOTIFICATION)) {
      const status = tagText(body!, "status") as WorkerState | null;
      if (status === null || !TERMINAL.has(status)) continue;
      const taskId = tagText(body!, "task-id");
      const callId = tagText(body!, "tool-use-id");
      const summary = tagText(body!, "summary");
      let worker = (taskId && this.workers.get(taskId)) || (callId && this.byCall.get(callId)) || undefined;
      if (!worker && taskId) worker = this.fromSummary(taskId, summary);
      if (!worker) continue;
      this.ended(worker, status, atMs, summary);
      const output = tagText(body!, "output-file");
      if (output) worker.outputFile = output;
    }
  }

  /** A `task_status` attachment (2.1.332, after a compaction): Claude Code's own word on a background task. */
  private taskStatus(attachment: Block, atMs: number | undefined): void {
    const id = text(attachment.taskId);
    const shell = isObject(attachment.shell) ? attachment.shell : {};
    const kind: WorkerKind | null =
      attachment.taskType === "local_agent"
        ? "agent"
        : attachment.taskType === "local_bash"
          ? shell.kind === "monitor"
            ? "monitor"
            : "shell"
          : null;
    if (!id || !kind) return;
    let worker = this.workers.get(id);
    if (!worker) {
      worker = {
        kind,
        id,
        description: clip(text(attachment.description) ?? ""),
        command: kind === "agent" ? null : (text(shell.command) ?? null),
        state: "running",
        background: true,
        startedAtMs: null,
        endedAtMs: null,
      };
      this.add(id, worker);
    }
    const output = text(attachment.outputFilePath);
    if (output) worker.outputFile = output;
    const status = text(attachment.status) as WorkerState | null;
    if (status !== null && TERMINAL.has(status)) this.ended(worker, status, atMs, null);
  }

  /** A `session_cron_carry` attachment: the crons Claude Code carried over a compaction; the others are gone. */
  private cronsCarried(tasks: unknown, atMs: number | undefined): void {
    if (!Array.isArray(tasks)) return;
    const carried = new Set(tasks.filter(isObject).map((task) => text(task.id)));
    for (const worker of this.workers.values()) {
      if (worker.kind !== "cron" || worker.state !== "scheduled" || carried.has(worker.id)) continue;
      if (atMs !== undefined && worker.startedAtMs !== null && worker.startedAtMs > atMs) continue;
      worker.state = "ended";
      worker.endedAtMs = atMs ?? null;
    }
  }

  /** The workers, oldest first, each 2.x subagent with its own transcript file. */
  private list(): Worker[] {
    return this.order.map((worker) => {
      const file = worker.kind === "agent" ? this.scan.subagentTranscripts.get(worker.id) : undefined;
      return file ? { ...worker, transcript: file } : { ...worker };
    });
  }

  private startOf(tool: string, input: Block): Omit<Worker, "id" | "state" | "startedAtMs" | "endedAtMs"> | null {
    const description = clip(text(input.description) ?? "");
    if (tool === "Bash" && input.run_in_background === true) {
      return { kind: "shell", description, command: text(input.command) ?? "", background: true };
    }
    if (tool === "Monitor")
      return { kind: "monitor", description, command: text(input.command) ?? null, background: true };
    if (tool === "Agent" || tool === "Task") {
      const type = text(input.subagent_type);
      return { kind: "agent", description, command: null, background: false, ...(type ? { agentType: type } : {}) };
    }
    if (tool === "CronCreate") {
      return {
        kind: "cron",
        description: clip(text(input.prompt) ?? ""),
        command: text(input.cron) ?? null,
        background: true,
      };
    }
    return null;
  }

  private started(
    callId: string,
    worker: Worker,
    isError: boolean,
    content: string,
    result: Block,
    atMs: number | undefined,
  ): void {
    if (isError) {
      // A refused call never ran; an agent that ran and came back with an error did.
      if (worker.kind !== "agent" || REFUSED.test(content)) {
        this.forget(worker);
        this.byCall.delete(callId);
        return;
      }
      worker.state = /interrupted/i.test(content) ? "killed" : "failed";
      worker.endedAtMs = atMs ?? null;
      worker.detail = clip(content);
      return;
    }
    const id =
      text(result.backgroundTaskId) ??
      text(result.agentId) ??
      text(result.taskId) ??
      (worker.kind === "cron" ? text(result.id) : null) ??
      idFromText(worker.kind, content);
    if (id && id !== worker.id) {
      this.workers.delete(worker.id);
      worker.id = id;
      this.workers.set(id, worker);
    }
    const output =
      text(result.outputFile) ??
      /Output is being written to: (\S+?\.output)\b/.exec(content)?.[1] ??
      /output_file: (\S+)/.exec(content)?.[1];
    if (output) worker.outputFile = output;
    if (worker.kind === "agent") {
      const type = text(result.agentType);
      if (type) worker.agentType = type;
      if (result.status === "async_launched" || result.isAsync === true) worker.background = true;
      else {
        // A foreground agent's result is its end (1.x: `wasInterrupted`).
        worker.state = result.wasInterrupted === true ? "killed" : "completed";
        worker.endedAtMs = atMs ?? null;
      }
    }
  }

  private controlled(pending: Pending, result: Block, atMs: number | undefined): void {
    const worker = this.workers.get(pending.target!) ?? this.byCall.get(pending.target!);
    if (!worker) return;
    if (STOP_TOOLS.has(pending.tool) && result.success !== false)
      this.ended(worker, "killed", atMs, text(result.message));
    else if (pending.tool === "CronDelete" && result.success !== false) {
      worker.state = "deleted";
      worker.endedAtMs = atMs ?? null;
    } else if (STATUS_TOOLS.has(pending.tool)) {
      const task = isObject(result.task) ? result.task : result;
      const status = text(task.status) as WorkerState | null;
      if (status === "running" && !TERMINAL.has(worker.state)) worker.state = "running";
      else if (status !== null && TERMINAL.has(status)) this.ended(worker, status, atMs, null);
    }
  }

  private ended(worker: Worker, state: WorkerState, atMs: number | undefined, detail: string | null): void {
    // `stopped` (its process ended) after a completion is Claude Code not finding the record: keep the completion.
    if (state === "stopped" && TERMINAL.has(worker.state)) return;
    worker.state = state;
    worker.endedAtMs = atMs ?? worker.endedAtMs;
    if (detail) worker.detail = clip(detail);
  }

  /** A notification about a worker started before the part of the file that was read. */
  private fromSummary(id: string, summary: string | null): Worker | undefined {
    const kind: WorkerKind | null =
      summary?.startsWith("Background command") || summary?.startsWith("Background shell")
        ? "shell"
        : summary?.startsWith("Agent")
          ? "agent"
          : summary?.startsWith("Monitor")
            ? "monitor"
            : null;
    if (!kind) return undefined;
    const worker: Worker = {
      kind,
      id,
      description: clip(/"([^"]*)"/.exec(summary ?? "")?.[1] ?? ""),
      command: null,
      state: "running",
      background: true,
      startedAtMs: null,
      endedAtMs: null,
    };
    this.add(id, worker);
    return worker;
  }

  private remember(callId: string, pending: Pending): void {
    this.pending.set(callId, pending);
    if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
  }

  private add(callId: string, worker: Worker): void {
    this.byCall.set(callId, worker);
    this.workers.set(worker.id, worker);
    this.order.push(worker);
    if (this.order.length <= MAX_WORKERS) return;
    // The oldest that ended goes first; a live one only when nothing else is left to drop.
    this.forget(this.order.find((entry) => !LIVE.has(entry.state)) ?? this.order[0]!);
    this.dropped += 1;
  }

  private forget(worker: Worker): void {
    if (this.workers.get(worker.id) === worker) this.workers.delete(worker.id);
    const at = this.order.indexOf(worker);
    if (at !== -1) this.order.splice(at, 1);
  }
}

function idFromText(kind: WorkerKind, content: string): string | null {
  const pattern =
    kind === "shell"
      ? /with ID: ([\w-]+)/
      : kind === "agent"
        ? /agentId: ([\w-]+)/
        : kind === "monitor"
          ? /\(task ([\w-]+)/
          : /job ([\w-]+)/;
  return pattern.exec(content)?.[1] ?? null;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function clip(value: string): string {
  const line = value.replace(/\s+/g, " ").trim();
  return line.length > MAX_TEXT_CHARS ? `${line.slice(0, MAX_TEXT_CHARS - 1)}…` : line;
}

const TOOL_USE_BYTES = Buffer.byteLength('"type":"tool_use"');
const ID_KEY = Buffer.from(',"id":"');
const NAME_KEY = Buffer.from('","name":"');
const BACKGROUND = Buffer.from('"run_in_background":true');
const MAX_ID_BYTES = 128;
const QUOTE = 0x22;
const NEWLINE = 0x0a;

/** A worker call's id at a tool_use match, from its bytes (every version: `"type":"tool_use","id":"…","name":"…"`). */
function workerCall(region: Buffer, at: number): string | null {
  const idAt = at + TOOL_USE_BYTES;
  if (!bytesAt(region, ID_KEY, idAt)) return null;
  const idStart = idAt + ID_KEY.length;
  const idEnd = region.indexOf(QUOTE, idStart);
  if (idEnd === -1 || idEnd - idStart > MAX_ID_BYTES || !bytesAt(region, NAME_KEY, idEnd)) return null;
  const nameStart = idEnd + NAME_KEY.length;
  const nameEnd = region.indexOf(QUOTE, nameStart);
  if (nameEnd === -1 || nameEnd - nameStart > MAX_ID_BYTES) return null;
  const name = region.toString("latin1", nameStart, nameEnd);
  if (name === "Bash") {
    const lineEnd = region.indexOf(NEWLINE, nameEnd);
    if (region.subarray(nameEnd, lineEnd === -1 ? region.length : lineEnd).indexOf(BACKGROUND) === -1) return null;
  } else if (!WORKER_TOOLS.has(name)) return null;
  return region.toString("utf8", idStart, idEnd);
}

function bytesAt(region: Buffer, bytes: Buffer, at: number): boolean {
  return at + bytes.length <= region.length && region.compare(bytes, 0, bytes.length, at, at + bytes.length) === 0;
}

function resultNeedle(id: string): Buffer {
  return Buffer.from(`"tool_use_id":${JSON.stringify(id)}`);
}
