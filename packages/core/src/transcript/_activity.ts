import { type Call, callsCollector, FILE_TOOLS } from "./_calls.ts";
import type { Collector, CollectorRun, Order, ScanContext, ToolResult } from "./_collector.ts";
import { type Check, type CommandChecks, commandChecks, covers } from "./_command-check.ts";
import { textOf } from "./_content.ts";
import { conversationCollector } from "./conversation.ts";
import type { Activity, ToolError, TranscriptFacts } from "./facts.ts";
import { isPlanPath } from "./plans.ts";

type ActivityFacts = Pick<TranscriptFacts, "filesChanged" | "commands" | "errors" | "since">;

/**
 * The session's work: files changed, commands run, errors and what fixed them, over everything read and since the
 * last compaction.
 */
export const activityCollector: Collector<ActivityFacts, Work> = { start: (scan) => new Work(scan) };

const MAX_ENTRIES = 1_000;
const MAX_MESSAGE_CHARS = 500;
// Passes remembered, for failures read later from another file (a subagent's) to be matched against.
const MAX_PASSES_PER_KEY = 16;
const MAX_BASH_PASSES = 2_000;
const MAX_CACHED_CHECKS = 256;

interface OpenError {
  error: ToolError;
  order: Order;
  /** What a Bash failure was about (its last step); null for other tools. */
  check: Check | null;
  /** The tool refused the call's input (InputValidationError): the next call of the tool that runs fixes it. */
  malformed: boolean;
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

class Work implements CollectorRun<ActivityFacts> {
  private readonly session = new ActivityLog();
  private recent = new ActivityLog();
  private readonly open = new Map<string, OpenError[]>();
  private readonly openChecks = new Map<string, OpenError[]>();
  private readonly openMalformed = new Map<string, OpenError[]>();
  private readonly passes = new Map<string, Order[]>();
  private readonly bashPasses: Array<{ command: string; cwd: string | undefined; order: Order }> = [];
  private readonly checkCache = new Map<string, CommandChecks>();
  private readonly toolPasses = new Map<string, Order[]>();
  private readonly conversation;

  constructor(private readonly scan: ScanContext) {
    scan.use(callsCollector).watch({
      succeeded: (call) => this.succeeded(call),
      failed: (call, result) => this.failed(call, result),
    });
    this.conversation = scan.use(conversationCollector);
    // After the calls have settled: what they did belongs to the stretch before the compaction.
    this.conversation.onCompaction(() => {
      this.recent = new ActivityLog();
    });
  }

  get dropped(): number {
    return this.session.dropped;
  }

  finish(): ActivityFacts {
    const compaction = this.conversation.compactions.at(-1) ?? null;
    return { ...this.session.activity(), since: { ...this.recent.activity(), compaction } };
  }

  private failed(call: Call | undefined, result: ToolResult): void {
    const message = errorText(result.content);
    const error: ToolError = { tool: call?.tool ?? "unknown", target: call?.target ?? "", message, resolved: false };
    if (result.atMs !== undefined) error.atMs = result.atMs;
    if (call?.line !== undefined) error.line = call.line;
    if (result.agentId) error.agentId = result.agentId;
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
    if (FILE_TOOLS.has(call.tool)) this.fileChanged(call);
    else if (call.tool === "Bash") this.commandRun(call, false);
    this.resolveBy(call);
  }

  private fileChanged(call: Call): void {
    if (!call.target || isPlanPath(call.target, this.scan.plansDir)) return;
    this.session.fileChanged(call.target, call.tool);
    if (call.recent) this.recent.fileChanged(call.target, call.tool);
  }

  private commandRun(call: Call, failed: boolean): void {
    if (!call.target) return;
    this.session.commandRun(call.target, call.seq, failed);
    if (call.recent) this.recent.commandRun(call.target, call.seq, failed);
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
    if (this.scan.subagentTranscripts.size === 0) return;
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
    if (call.order.file === 0) return false;
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
