import { type Call, callsCollector, FILE_TOOLS } from "./_calls.ts";
import type { Collector, CollectorRun, FileReading, ScanContext, ToolResult } from "./_collector.ts";
import { isObject } from "./_content.ts";
import { needle } from "./candidates.ts";
import type { TaskItem, TodoItem, TranscriptFacts } from "./facts.ts";

type PlanFacts = Pick<TranscriptFacts, "todos" | "tasks" | "plansWritten">;

/** What the session planned, which outlives a compaction: its todo list, its task list, the plan files it wrote. */
export const plansCollector: Collector<PlanFacts, Plans> = { start: (scan) => new Plans(scan) };

const TASK_CREATE_NAME = Buffer.from('"name":"TaskCreate"');
const PEEK_BYTES = 200;
const DEFAULT_PLAN_PATH = /[\\/]\.claude[\\/]plans[\\/][^\\/]+$/;

class Plans implements CollectorRun<PlanFacts> {
  private readonly calls;
  private todos: { seq: number; items: TodoItem[] } | null = null;
  private readonly tasks = new Map<string, TaskItem>();
  /** The ids TaskCreate results gave, by call id, until their call settles. */
  private readonly createdIds = new Map<string, string>();
  private readonly plans = new Set<string>();

  constructor(private readonly scan: ScanContext) {
    this.calls = scan.use(callsCollector);
    this.calls.watch({ succeeded: (call) => this.succeeded(call) });
  }

  reading(): FileReading {
    // Where this chunk's first TaskCreate call is: a task's id is only in its result, further on.
    let taskCreateAt: number | null = null;
    return {
      // The block's name sits beside its type (2.1.332: `{"type":"tool_use","id":"…","name":"…"`).
      onToolUse: (region, at) => {
        if (
          taskCreateAt === null &&
          region.subarray(Math.max(0, at - PEEK_BYTES), at + PEEK_BYTES).includes(TASK_CREATE_NAME)
        )
          taskCreateAt = at;
      },
      needles: [
        // Searched only past a TaskCreate call, or from the start while a call from an earlier chunk awaits its
        // id; most sessions never call TaskCreate, so most chunks skip this needle.
        needle('{"task":{"id":"', '{"task":{"id":"', {
          startAt: () => {
            const from = this.awaitsTaskId() ? 0 : taskCreateAt;
            taskCreateAt = null;
            return from;
          },
        }),
      ],
    };
  }

  toolResult(result: ToolResult): void {
    if (result.isError || this.calls.pending.get(result.id)?.tool !== "TaskCreate") return;
    const task = isObject(result.result) && isObject(result.result.task) ? result.result.task : null;
    if (task && (typeof task.id === "string" || typeof task.id === "number"))
      this.createdIds.set(result.id, String(task.id));
  }

  finish(): PlanFacts {
    return { todos: this.todos?.items ?? null, tasks: [...this.tasks.values()], plansWritten: [...this.plans] };
  }

  /** A TaskCreate call has not met its result yet (the result carries the task's id). */
  private awaitsTaskId(): boolean {
    for (const call of this.calls.pending.values())
      if (call.tool === "TaskCreate" && !this.createdIds.has(call.id)) return true;
    return false;
  }

  private succeeded(call: Call): void {
    if (FILE_TOOLS.has(call.tool)) {
      if (call.target && isPlanPath(call.target, this.scan.plansDir)) this.plans.add(call.target);
    } else if (call.tool === "TodoWrite") this.todoWritten(call);
    else if (call.tool === "TaskCreate") this.taskCreate(call);
    else if (call.tool === "TaskUpdate") this.taskUpdate(call);
  }

  private todoWritten(call: Call): void {
    if (call.sidechain || call.order.file > 0 || !Array.isArray(call.input.todos)) return;
    if (this.todos === null || call.seq > this.todos.seq)
      this.todos = { seq: call.seq, items: todoItems(call.input.todos) };
  }

  private taskCreate(call: Call): void {
    const created = this.createdIds.get(call.id);
    this.createdIds.delete(call.id);
    // Claude Code 2.1.332 numbers a session's tasks 1, 2, 3… ("Task #1 created successfully").
    const id = created ?? String(Math.max(0, ...[...this.tasks.keys()].map(Number).filter(Number.isFinite)) + 1);
    const subject = typeof call.input.subject === "string" ? call.input.subject : "";
    this.tasks.set(id, { id, subject, status: "pending" });
  }

  private taskUpdate(call: Call): void {
    const { taskId, status, subject } = call.input;
    if (typeof taskId !== "string" && typeof taskId !== "number") return;
    const id = String(taskId);
    if (status === "deleted") {
      this.tasks.delete(id);
      return;
    }
    const task = this.tasks.get(id) ?? { id, subject: "", status: "pending" };
    if (typeof status === "string" && status) task.status = status;
    if (typeof subject === "string" && subject) task.subject = subject;
    this.tasks.set(id, task);
  }
}

/** In the configured plans directory, or any `.claude/plans/` (a session resumed under another home). */
export function isPlanPath(path: string, plansDir: string | undefined): boolean {
  return (
    (plansDir !== undefined &&
      plansDir !== "" &&
      path.startsWith(plansDir.endsWith("/") ? plansDir : `${plansDir}/`)) ||
    DEFAULT_PLAN_PATH.test(path)
  );
}

function todoItems(list: unknown[]): TodoItem[] {
  return list.filter(isObject).map((item) => ({
    content: typeof item.content === "string" ? item.content : "",
    status: typeof item.status === "string" ? item.status : "pending",
  }));
}
