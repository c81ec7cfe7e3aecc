import { type HookDefinition, type HookIO, type LazyHook, runHook, runStatusLine, type StatusLineCommand } from "../../packages/core/src/index.ts";

/** What a hook's bin.ts hands core's runtime: the exact object the shipped executable runs. */
export type Shipped = { kind: "hook"; hook: HookDefinition<any, any> | LazyHook<any> } | { kind: "statusline"; command: StatusLineCommand };

export interface InProcessRun {
  output: string;
  /** The run rejected: the executable would have died with a non-zero exit. */
  error?: unknown;
  /** Still running after the deadline. */
  hung: boolean;
}

/** Runs one invocation through core's runtime with `stdin` injected, as the executable would. */
export async function runInProcess(shipped: Shipped, env: Record<string, string>, stdin: string, deadlineMs: number): Promise<InProcessRun> {
  let output = "";
  const io: HookIO = {
    readInput: async () => stdin,
    writeOutput: (text) => (output += text),
    writeTrace: () => {},
  };
  const run = shipped.kind === "hook" ? runHook(shipped.hook, env, io) : runStatusLine(shipped.command, env, io);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), deadlineMs)));
  try {
    const outcome = await Promise.race([run.then(() => "done" as const), deadline]);
    return { output, hung: outcome === "hung" };
  } catch (error) {
    return { output, error, hung: false };
  } finally {
    clearTimeout(timer);
  }
}
