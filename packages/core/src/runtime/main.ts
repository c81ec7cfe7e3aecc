import { writeSync } from "node:fs";
import type { Env } from "../env.ts";
import { type SessionPaths, sessionPaths } from "../session/session.ts";
import { type Call, readCall } from "./_call.ts";
import type { Pending } from "./_complete.ts";
import { HOOK_STDIN_LIMITS, readStdinSync } from "./_stdin.ts";
import type { HookDefinition, HookIO, ProbeContext } from "./definition.ts";
import { isDebug, isHookEnabled } from "./switches.ts";

// biome-ignore lint/suspicious/noExplicitAny: a bin hands over a hook of any events, section and findings.
type AnyHook = HookDefinition<any, any, any>;

const processIO: HookIO = {
  readInput: () => new Promise((resolve) => resolve(readStdinSync(HOOK_STDIN_LIMITS))),
  writeOutput: (text) => writeSync(1, text),
  writeTrace: (text) => writeSync(2, text),
};

/** A hook's bin file: one invocation on the process's stdio, then exit 0 whatever happened. */
export function main(hook: AnyHook): void {
  const exit = () => process.exit(0);
  // Synchronous up to the probe: a fast path ends without a promise or a microtask.
  invoke(hook, process.env, processIO, () => readStdinSync(HOOK_STDIN_LIMITS))?.then(exit, exit);
}

/** One invocation with `io` in place of the process's stdio, as tests and the in-process fuzzers drive it. */
export function runHook(hook: AnyHook, env: Env, io: HookIO): Promise<void> {
  const read = io.readInput().then(
    (text) => () => text,
    (error: unknown) => () => {
      throw error;
    },
  );
  return read.then((text) => invoke(hook, env, io, text));
}

/**
 * One hook invocation: stdin read and parsed once, the hook's probe on the raw payload, and only when there
 * is something to do (or to log) the rest of the runtime, which an executable carries as deferred code
 * (packages/build) and so compiles only then. Fails open: whatever goes wrong is logged by `logFailure`,
 * and nothing can block a prompt or a compaction. Undefined when it ended on the fast path.
 */
function invoke(hook: AnyHook, env: Env, io: HookIO, readInput: () => string): Promise<void> | undefined {
  const startMs = Date.now();
  const trace = (message: string) => {
    if (isDebug(env)) io.writeTrace(`carryover ${hook.name}: ${message}\n`);
  };
  if (!isHookEnabled(env, hook.name)) {
    trace("disabled by CARRYOVER/CARRYOVER_DISABLE");
    return undefined;
  }
  let pending: Pending;
  try {
    const call = readCall(readInput(), env);
    let probed: ProbeContext | null = null;
    let found: unknown;
    if (hook.probe && call.payload && call.sessionId) {
      probed = probeContext(hook.name, call as ProbedCall, env, startMs);
      found = hook.probe(probed);
      if (found === null && !probed.loadedConfig?.problems.length) {
        trace(`fast path: nothing to do (${Date.now() - startMs} ms)`);
        return undefined;
      }
    }
    pending = { hook, env, io, startMs, trace, call, probed, found };
  } catch (error) {
    return import("./_complete.ts").then(({ logFailure }) => logFailure(env, hook.name, trace, error));
  }
  return import("./_complete.ts").then(({ completeHook, logFailure }) =>
    completeHook(pending).catch((error: unknown) => logFailure(env, hook.name, trace, error)),
  );
}

type ProbedCall = Call & { payload: ProbeContext["payload"]; sessionId: string };

/** The session's paths are worked out only when the probe asks for them: most probes decide without. */
function probeContext(name: string, call: ProbedCall, env: Env, nowMs: number): ProbeContext {
  const { payload, sessionId, projectDir } = call;
  let session: SessionPaths | undefined;
  return {
    name,
    payload,
    env,
    nowMs,
    projectDir,
    get session() {
      session ??= sessionPaths(env, sessionId);
      return session;
    },
  };
}
