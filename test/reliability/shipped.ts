import {
  type HookDefinition,
  type HookIO,
  runHook,
  runStatusLine,
  type StatusLineDefinition,
} from "../../packages/core/src/index.ts";

/** What a hook's bin.ts hands core's runtime: the exact object the shipped executable runs. */
export type Shipped =
  | { kind: "hook"; hook: HookDefinition<any, any, any> }
  | { kind: "statusline"; command: StatusLineDefinition };

export interface InProcessRun {
  output: string;
  /** The run rejected: the executable would have died with a non-zero exit. */
  error?: unknown;
  /** Still running at the deadline, or done after it (a run that blocks the event loop never lets the timer fire). */
  hung: boolean;
  durationMs: number;
  /** CPU time this process spent, user and system: unlike the wall time, barely moved by other processes' load. */
  cpuMs: number;
}

// What core's stdin reader lets through (runtime/_stdin.ts): larger input never reaches a hook.
const HOOK_STDIN_MAX_BYTES = 16 * 1024 * 1024;
const STATUS_LINE_STDIN_MAX_BYTES = 4 * 1024 * 1024;

/** Runs one invocation through core's runtime with `stdin` injected, as the executable would. */
export async function runInProcess(
  shipped: Shipped,
  env: Record<string, string>,
  stdin: string,
  deadlineMs: number,
): Promise<InProcessRun> {
  let output = "";
  const maxBytes = shipped.kind === "hook" ? HOOK_STDIN_MAX_BYTES : STATUS_LINE_STDIN_MAX_BYTES;
  const io: HookIO = {
    readInput: async () => {
      if (Buffer.byteLength(stdin) > maxBytes) throw new Error(`stdin larger than ${maxBytes} bytes`);
      return stdin;
    },
    writeOutput: (text) => (output += text),
    writeTrace: () => {},
  };
  const run = shipped.kind === "hook" ? runHook(shipped.hook, env, io) : runStatusLine(shipped.command, env, io);
  const startMs = performance.now();
  const startCpu = process.cpuUsage();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), deadlineMs)));
  try {
    const outcome = await Promise.race([run.then(() => "done" as const), deadline]);
    const durationMs = performance.now() - startMs;
    return { output, hung: outcome === "hung" || durationMs > deadlineMs, durationMs, cpuMs: cpuMsSince(startCpu) };
  } catch (error) {
    return { output, error, hung: false, durationMs: performance.now() - startMs, cpuMs: cpuMsSince(startCpu) };
  } finally {
    clearTimeout(timer);
  }
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}
