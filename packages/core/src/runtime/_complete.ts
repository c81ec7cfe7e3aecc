import { loadConfig } from "../config/load.ts";
import type { Env } from "../env.ts";
import { errorMessage } from "../errors.ts";
import { type HookEvent, parseHookInput } from "../schema/payloads.ts";
import { openSession } from "../session/session.ts";
import type { Call } from "./_call.ts";
import type { HookDefinition, HookIO, ProbeContext } from "./definition.ts";
import { logLine } from "./log.ts";

export interface Pending {
  // biome-ignore lint/suspicious/noExplicitAny: the runtime hands on whatever the hook's probe found.
  hook: HookDefinition<any, any, any>;
  env: Env;
  io: HookIO;
  startMs: number;
  trace(message: string): void;
  call: Call;
  /** The probe's context when the probe ran (its config is reused), else null. */
  probed: ProbeContext | null;
  /** What the probe found: null when it found nothing to do and only config problems are left to log. */
  found: unknown;
}

/** The rest of a hook invocation: validation, config, run, output. Rejects with what it cannot do; the caller logs. */
export async function completeHook({ hook, env, io, startMs, trace, call, probed, found }: Pending): Promise<void> {
  const log = (message: string) => {
    trace(message);
    logLine(env, hook.name, message);
  };
  if (!call.payload) return log(call.refusal ?? "no payload");
  const config = probed?.loadedConfig ?? loadConfig(hook.name, (await hook.config()).keys, env, call.projectDir);
  for (const problem of config.problems) log(`config: ${problem}`);
  if (found === null) return trace(`fast path: nothing to do (${Date.now() - startMs} ms)`);
  const event = call.payload.hook_event_name as HookEvent;
  if (!hook.events.includes(event)) return log(`not registered for ${JSON.stringify(event)}`);
  const input = parseHookInput(event, call.payload);
  const session = openSession(env, input.session_id);
  const context = { input, event, env, nowMs: startMs, config, projectDir: call.projectDir, session, log };
  const result = await hook.run(context, found);
  if (result) io.writeOutput(typeof result === "string" ? result : JSON.stringify(result));
  trace(`${event} done in ${Date.now() - startMs} ms${result ? "" : " (no output)"}`);
}

/** The runtime's one catch: a line to the log (and to stderr when debugging), never a stack trace. */
export function logFailure(env: Env, name: string, trace: (message: string) => void, error: unknown): void {
  const message = errorMessage(error);
  trace(message);
  logLine(env, name, message);
}
