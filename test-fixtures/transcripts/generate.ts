import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * Large synthetic Claude Code transcripts for tests and benchmarks. Every line is a line captured from
 * the real CLI 2.1.332 (`../payloads/transcript-sample.jsonl`) with its ids, times and content
 * replaced, so keys, key order and the mix of bookkeeping lines match what Claude Code writes. Tool
 * results are sized like a working session's (large Read outputs, long bookkeeping lines), and the
 * bookkeeping lines carry `"tool_use"` and `"is_error":true` too, as real ones do.
 */
export interface GenerateOptions {
  /** Stop at the first turn boundary past this size. */
  targetBytes: number;
  /** Same seed, same file. */
  seed?: number;
  /** Compactions spread evenly over the file. */
  compactions?: number;
  /** End with half a line and no newline, as when Claude Code is mid-write. */
  tornTail?: boolean;
  sessionId?: string;
  projectDir?: string;
  /** The captured transcript the lines are modelled on (set it when this file is bundled elsewhere). */
  samplePath?: string;
}

/** What the generator put in the file: the facts a correct scanner finds. */
export interface GeneratedTruth {
  bytes: number;
  lines: number;
  compactions: number;
  lastUserRequest: string;
  todos: Array<{ content: string; status: string }> | null;
  tasks: Array<{ id: string; subject: string; status: string }>;
  /** Activity after the last compaction. */
  section: Activity;
  /** Activity over the whole file. */
  whole: Activity;
}

interface Activity {
  /** path → successful changes */
  files: Record<string, number>;
  /** command → runs, failures, and whether the latest run failed */
  commands: Record<string, { count: number; failures: number; failed: boolean }>;
  errors: number;
  resolvedErrors: number;
}

const SAMPLE = join(import.meta.dirname, "../payloads/transcript-sample.jsonl");
const FLUSH_BYTES = 4 * 1024 * 1024;

type Line = Record<string, any>;

export function generateTranscript(path: string, options: GenerateOptions): GeneratedTruth {
  const generator = new Generator(options);
  const fd = openSync(path, "w", 0o600);
  try {
    generator.run((chunk) => writeAll(fd, chunk));
  } finally {
    closeSync(fd);
  }
  return generator.truth();
}

function writeAll(fd: number, text: string): void {
  const buffer = Buffer.from(text);
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset);
}

class Generator {
  private readonly random: () => number;
  private readonly templates: Templates;
  private readonly sessionId: string;
  private readonly project: string;
  private readonly text: string;
  private readonly files: string[];
  private readonly commandPool: string[];
  private bytes = 0;
  private lines = 0;
  private buffered: string[] = [];
  private bufferedBytes = 0;
  private clockMs = Date.parse("2026-11-29T09:00:00.000Z");
  private counter = 0;
  private parentUuid: string | null = null;
  private compactionsDone = 0;
  private lastUserRequest = "";
  private todos: GeneratedTruth["todos"] = null;
  private readonly tasks = new Map<string, { id: string; subject: string; status: string }>();
  private section = emptyActivity();
  private readonly whole = emptyActivity();
  private openErrors = { section: new Map<string, number>(), whole: new Map<string, number>() };
  /** Errors the session will fix a few calls later: the same command or an edit of the same file. */
  private fixes: Array<{ tool: "Bash" | "Edit"; target: string }> = [];

  constructor(private readonly options: GenerateOptions) {
    this.random = mulberry32(options.seed ?? 1);
    this.templates = loadTemplates(options.samplePath ?? SAMPLE);
    this.sessionId = options.sessionId ?? "5e55a0e1-0000-4000-8000-00000000c0de";
    this.project = options.projectDir ?? "/home/user/proj";
    this.text = filler(this.random, 64 * 1024);
    const dirs = ["src", "src/core", "src/hooks", "src/cli", "test", "docs", "scripts", "packages/api/src"];
    this.files = Array.from(
      { length: 240 },
      (_, i) => `${this.project}/${dirs[i % dirs.length]}/file-${i}.${["ts", "md", "json"][i % 3]}`,
    );
    const verbs = [
      "pnpm test",
      "pnpm build",
      "git status",
      "git diff --stat",
      "node scripts/check.mjs",
      "pnpm exec tsc --noEmit -p",
      "ls -la",
      "cat",
    ];
    this.commandPool = Array.from(
      { length: 160 },
      (_, i) => `${verbs[i % verbs.length]} ${this.files[i % this.files.length]!.slice(this.project.length + 1)}`,
    );
  }

  run(write: (chunk: string) => void): void {
    this.sink = write;
    const { targetBytes } = this.options;
    const count = this.options.compactions ?? 0;
    const boundaries = Array.from({ length: count }, (_, i) => ((i + 1) * targetBytes) / (count + 1));
    let turn = 0;
    while (this.bytes < targetBytes) {
      if (boundaries.length > 0 && this.bytes >= boundaries[0]!) {
        boundaries.shift();
        this.compaction();
      }
      this.turn(turn++);
    }
    if (this.options.tornTail) {
      const line = this.toolUseLine("Bash", { command: "pnpm test" });
      const half = line.slice(0, Math.floor(line.length / 2));
      this.buffered.push(half);
      this.bytes += Buffer.byteLength(half);
    }
    this.flush();
  }

  truth(): GeneratedTruth {
    return {
      bytes: this.bytes,
      lines: this.lines,
      compactions: this.compactionsDone,
      lastUserRequest: this.lastUserRequest,
      todos: this.todos,
      tasks: [...this.tasks.values()],
      section: this.section,
      whole: this.whole,
    };
  }

  private sink: (chunk: string) => void = () => {};

  private emit(line: string): void {
    this.buffered.push(line, "\n");
    this.bufferedBytes += line.length + 1;
    this.bytes += Buffer.byteLength(line) + 1;
    this.lines += 1;
    if (this.bufferedBytes >= FLUSH_BYTES) this.flush();
  }

  private flush(): void {
    this.sink(this.buffered.join(""));
    this.buffered = [];
    this.bufferedBytes = 0;
  }

  private turn(index: number): void {
    const prompt = `Task ${index}: ${this.words(6 + this.int(30))}`;
    this.lastUserRequest = prompt;
    this.raw("queue");
    this.conversation("prompt", { message: { role: "user", content: prompt }, permissionMode: "default" });
    this.raw("attachment");
    this.raw("snapshot");
    if (index % 5 === 0) this.raw("shape");
    this.blob({ role: "user", content: [{ type: "text", text: prompt }] });
    this.raw("request");
    const steps = 3 + this.int(12);
    for (let step = 0; step < steps; step++) this.step();
    this.conversation("text", {
      message: {
        ...this.templates.text.message,
        id: this.id("msg"),
        content: [{ type: "text", text: this.words(20) }],
      },
    });
    this.raw("stopSummary");
    this.raw("lastPrompt");
    this.raw("cost");
  }

  private step(): void {
    this.raw("request");
    this.raw("toolsUsed");
    if (this.random() < 0.3)
      this.conversation("text", {
        message: {
          ...this.templates.text.message,
          id: this.id("msg"),
          content: [{ type: "text", text: this.words(15) }],
        },
      });
    const fix = this.fixes.length > 0 && this.random() < 0.5 ? this.fixes.shift()! : null;
    if (fix?.tool === "Bash") {
      this.bash(fix.target, false);
      return;
    }
    if (fix?.tool === "Edit") {
      this.edit(fix.target, false);
      return;
    }
    const roll = this.random();
    if (roll < 0.35) this.read();
    else if (roll < 0.6) this.bash(this.pick(this.commandPool), this.random() < 0.1);
    else if (roll < 0.75) this.edit(this.pick(this.files), this.random() < 0.06);
    else if (roll < 0.82) this.write();
    else if (roll < 0.9) this.grep();
    else if (roll < 0.95) this.todoWrite();
    else this.task();
    if (this.random() < 0.15) this.raw("snapshot");
    this.raw("latch");
  }

  private read(): void {
    const file = this.pick(this.files);
    const id = this.call("Read", { file_path: file });
    const content = this.slice(2_000 + this.int(40_000));
    this.result(id, content, false, {
      type: "text",
      file: { filePath: file, content, numLines: 100, startLine: 1, totalLines: 100 },
    });
  }

  private grep(): void {
    const id = this.call("Grep", { pattern: this.words(1), path: this.project });
    // Output that quotes transcript text: escaped inside a string, so it is no line of its own.
    const content = `${this.slice(300 + this.int(3_000))}\n{"type":"tool_use","is_error":true}`;
    this.result(id, content, false, { mode: "content", numFiles: 3, filenames: [], content });
  }

  private bash(command: string, fails: boolean): void {
    const id = this.call("Bash", { command, description: "run it" });
    if (fails) {
      const message = `Exit code 1\n${this.slice(100 + this.int(2_000))}`;
      this.result(id, message, true, `Error: ${message}`);
      this.failure("Bash", command);
      if (this.random() < 0.7) this.fixes.push({ tool: "Bash", target: command });
    } else {
      const stdout = this.slice(50 + this.int(6_000));
      this.result(id, stdout, false, {
        stdout,
        stderr: "",
        interrupted: false,
        isImage: false,
        noOutputExpected: false,
      });
      this.success("Bash", command);
    }
    this.recordCommand(command, fails);
  }

  private edit(file: string, fails: boolean): void {
    const oldString = this.slice(20 + this.int(400));
    const id = this.call("Edit", {
      replace_all: false,
      file_path: file,
      old_string: oldString,
      new_string: this.slice(20 + this.int(400)),
    });
    if (fails) {
      this.result(
        id,
        `<tool_use_error>String to replace not found in file.\nString: ${oldString.slice(0, 40)}</tool_use_error>`,
        true,
        "Error: String to replace not found in file.",
      );
      this.failure("Edit", file);
      if (this.random() < 0.8) this.fixes.push({ tool: "Edit", target: file });
      return;
    }
    const originalFile = this.slice(500 + this.int(8_000));
    this.result(id, `The file ${file} has been updated successfully.`, false, {
      filePath: file,
      oldString,
      newString: "x",
      originalFile,
      structuredPatch: [],
      userModified: false,
      replaceAll: false,
    });
    this.success("Edit", file);
  }

  private write(): void {
    const file = this.pick(this.files);
    const content = this.slice(500 + this.int(10_000));
    const id = this.call("Write", { file_path: file, content });
    this.result(id, `File created successfully at: ${file}`, false, {
      type: "create",
      filePath: file,
      content,
      structuredPatch: [],
      originalFile: null,
    });
    this.success("Write", file);
  }

  private todoWrite(): void {
    const todos = Array.from({ length: 2 + this.int(5) }, (_, i) => ({
      content: `Todo ${this.counter}-${i}: ${this.words(4)}`,
      status: ["completed", "in_progress", "pending"][this.int(3)]!,
      activeForm: "Working",
    }));
    const id = this.call("TodoWrite", { todos });
    this.result(id, "Todos have been modified successfully.", false, { oldTodos: [], newTodos: todos });
    this.todos = todos.map(({ content, status }) => ({ content, status }));
  }

  private task(): void {
    if (this.tasks.size === 0 || this.random() < 0.5) {
      const subject = `Task subject ${this.counter}`;
      const callId = this.call("TaskCreate", { subject, description: this.words(8), activeForm: "Working" });
      const taskId = String(this.tasks.size + 1);
      this.result(callId, `Task #${taskId} created successfully: ${subject}`, false, {
        task: { id: taskId, subject, description: "d" },
      });
      this.tasks.set(taskId, { id: taskId, subject, status: "pending" });
      return;
    }
    const task = this.pick([...this.tasks.values()]);
    const status = ["in_progress", "completed"][this.int(2)]!;
    const callId = this.call("TaskUpdate", { taskId: task.id, status });
    this.result(callId, `Updated task #${task.id} status`, false, {
      success: true,
      taskId: task.id,
      updatedFields: ["status"],
    });
    task.status = status;
  }

  private compaction(): void {
    this.compactionsDone += 1;
    this.raw("mode");
    const boundary = this.templates.boundary;
    this.emit(
      JSON.stringify({
        ...boundary,
        logicalParentUuid: this.parentUuid,
        timestamp: this.tick(),
        uuid: this.id("uuid"),
        compactMetadata: {
          ...boundary.compactMetadata,
          trigger: this.compactionsDone % 2 ? "auto" : "manual",
          preTokens: 150_000 + this.compactionsDone,
          postTokens: 3_000,
        },
      }),
    );
    this.parentUuid = null;
    this.conversation("summary", {});
    this.section = emptyActivity();
    this.openErrors.section = new Map();
  }

  private call(tool: string, input: Record<string, unknown>): string {
    const id = this.id("toolu");
    this.emit(this.toolUseLine(tool, input, id));
    // Request bookkeeping repeats the call, and sometimes an error result, in Claude Code's blob lines.
    if (this.random() < 0.3) this.blob({ role: "assistant", content: [{ type: "tool_use", id, name: tool, input }] });
    if (this.random() < 0.05)
      this.blob({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "old", is_error: true }] });
    return id;
  }

  private toolUseLine(tool: string, input: Record<string, unknown>, id = this.id("toolu")): string {
    const template = this.templates.toolUse;
    return this.conversationText(template, {
      message: { ...template.message, id: this.id("msg"), content: [{ type: "tool_use", id, name: tool, input }] },
    });
  }

  private result(id: string, content: string, isError: boolean, toolUseResult: unknown): void {
    const block = isError
      ? { type: "tool_result", content, is_error: true, tool_use_id: id }
      : { tool_use_id: id, type: "tool_result", content, is_error: false };
    this.conversation(isError ? "error" : "result", { message: { role: "user", content: [block] }, toolUseResult });
  }

  private conversation(kind: keyof Templates, fields: Line): void {
    this.emit(this.conversationText(this.templates[kind] as Line, fields));
  }

  private conversationText(template: Line, fields: Line): string {
    const uuid = this.id("uuid");
    const line = {
      ...template,
      parentUuid: this.parentUuid,
      ...fields,
      uuid,
      timestamp: this.tick(),
      sessionId: this.sessionId,
      cwd: this.project,
    };
    this.parentUuid = uuid;
    return JSON.stringify(line);
  }

  private blob(message: unknown): void {
    this.emit(JSON.stringify({ type: "api-request-blob", sessionId: this.sessionId, hash: this.id("h"), message }));
  }

  private raw(kind: keyof Templates): void {
    this.emit(this.templates[kind] as string);
  }

  private success(tool: string, target: string): void {
    const key = `${tool === "Bash" ? "Bash" : "file"}\0${target}`;
    for (const [scope, activity] of [
      ["section", this.section],
      ["whole", this.whole],
    ] as const) {
      const open = this.openErrors[scope].get(key) ?? 0;
      activity.resolvedErrors += open;
      this.openErrors[scope].delete(key);
      if (tool !== "Bash") activity.files[target] = (activity.files[target] ?? 0) + 1;
    }
  }

  private failure(tool: string, target: string): void {
    const key = `${tool === "Bash" ? "Bash" : "file"}\0${target}`;
    for (const [scope, activity] of [
      ["section", this.section],
      ["whole", this.whole],
    ] as const) {
      activity.errors += 1;
      this.openErrors[scope].set(key, (this.openErrors[scope].get(key) ?? 0) + 1);
    }
  }

  private recordCommand(command: string, failed: boolean): void {
    for (const activity of [this.section, this.whole]) {
      activity.commands[command] ??= { count: 0, failures: 0, failed };
      const entry = activity.commands[command];
      entry.count += 1;
      if (failed) entry.failures += 1;
      entry.failed = failed;
    }
  }

  private tick(): string {
    this.clockMs += 50 + this.int(3_000);
    return new Date(this.clockMs).toISOString();
  }

  private id(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.counter.toString(36).padStart(8, "0")}`;
  }

  private int(below: number): number {
    return Math.floor(this.random() * below);
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  private slice(chars: number): string {
    const start = this.int(this.text.length - Math.min(chars, this.text.length));
    return this.text.slice(start, start + chars);
  }

  private words(count: number): string {
    return this.slice(count * 6)
      .replace(/\n/g, " ")
      .trim();
  }
}

interface Templates {
  prompt: Line;
  text: Line;
  toolUse: Line;
  result: Line;
  error: Line;
  summary: Line;
  boundary: Line;
  queue: string;
  attachment: string;
  snapshot: string;
  shape: string;
  request: string;
  toolsUsed: string;
  lastPrompt: string;
  latch: string;
  stopSummary: string;
  cost: string;
  mode: string;
}

const cachedTemplates = new Map<string, Templates>();

/** One captured line per kind, chosen by shape, not by position. */
function loadTemplates(samplePath: string): Templates {
  const cached = cachedTemplates.get(samplePath);
  if (cached) return cached;
  const raw = readFileSync(samplePath, "utf8").split("\n").filter(Boolean);
  const parsed = raw.map((text) => ({ text, line: JSON.parse(text) as Line }));
  const find = (what: string, test: (line: Line) => boolean) => {
    const found = parsed.find(({ line }) => test(line));
    if (!found) throw new Error(`${samplePath}: no ${what} line to use as a template`);
    return found;
  };
  const content = (line: Line) => line.message?.content;
  const blocks = (line: Line) => (Array.isArray(content(line)) ? (content(line) as Line[]) : []);
  const templates: Templates = {
    prompt: find("prompt", (line) => line.type === "user" && typeof line.permissionMode === "string").line,
    text: find("assistant text", (line) => line.type === "assistant" && blocks(line)[0]?.type === "text").line,
    toolUse: find("tool_use", (line) => line.type === "assistant" && blocks(line)[0]?.type === "tool_use").line,
    result: find("tool_result", (line) => line.type === "user" && blocks(line)[0]?.is_error === false).line,
    error: find("error result", (line) => line.type === "user" && blocks(line)[0]?.is_error === true).line,
    summary: find("compact summary", (line) => line.isCompactSummary === true).line,
    boundary: find("compact_boundary", (line) => line.subtype === "compact_boundary").line,
    queue: find("queue-operation", (line) => line.type === "queue-operation").text,
    attachment: find("attachment", (line) => line.type === "attachment" && line.attachment?.type === "skill_listing")
      .text,
    snapshot: find(
      "prompt_snapshot",
      (line) => line.attachment?.type === "prompt_snapshot" && JSON.stringify(line).length > 10_000,
    ).text,
    shape: find("api-request-shape", (line) => line.type === "api-request-shape").text,
    request: find("api-request", (line) => line.type === "api-request").text,
    toolsUsed: find("tools-used", (line) => line.type === "tools-used").text,
    lastPrompt: find("last-prompt", (line) => line.type === "last-prompt").text,
    latch: find("atis-latch", (line) => line.type === "atis-latch").text,
    stopSummary: find("stop_hook_summary", (line) => line.subtype === "stop_hook_summary").text,
    cost: find("cost-state", (line) => line.type === "cost-state").text,
    mode: find("mode", (line) => line.type === "mode").text,
  };
  cachedTemplates.set(samplePath, templates);
  return templates;
}

function emptyActivity(): Activity {
  return { files: {}, commands: {}, errors: 0, resolvedErrors: 0 };
}

function filler(random: () => number, chars: number): string {
  const words = [
    "const",
    "value",
    "return",
    "export",
    "function",
    "import",
    "await",
    "config",
    "state",
    "résumé",
    "→",
    "session",
    "{",
    "}",
    "=>",
    "if",
    "the",
    "file",
    "test",
    "path",
  ];
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const word = random() < 0.08 ? "\n" : `${words[Math.floor(random() * words.length)]} `;
    parts.push(word);
    length += word.length;
  }
  return parts.join("");
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
