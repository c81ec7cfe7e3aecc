import type { ConfigSection } from "../config/keys.ts";
import { type Config, loadConfig } from "../config/load.ts";
import type { Env } from "../env.ts";
import { errorMessage } from "../errors.ts";
import { logLine } from "./log.ts";
import type { HookResult } from "./output.ts";
import { oversizedPathField, projectDirOf } from "./_payload.ts";
import type { HookEvent, HookInput, HookInputs } from "../schema/payloads.ts";
import { isSafeSessionId } from "../claude/session-id.ts";
import { isDebug, isHookEnabled } from "./switches.ts";

export interface HookContext<E extends HookEvent, S extends ConfigSection> {
  input: HookInput<E>;
  event: E;
  env: Env;
  nowMs: number;
  config: Config<S>;
  /** The project root: `CLAUDE_PROJECT_DIR`, else the payload's cwd. */
  projectDir: string;
  /** A line to the carryover log (and to stderr with CARRYOVER_DEBUG=1). */
  log(message: string): void;
}

export interface HookDefinition<E extends HookEvent, S extends ConfigSection> {
  /** Also the config section and the name `CARRYOVER_DISABLE` takes. */
  name: S;
  /** The events it accepts, each with its payload schema: `{ PostCompact: postCompactInput }`. */
  inputs: HookInputs<E>;
  run(context: HookContext<E, S>): HookResult | Promise<HookResult>;
}

/**
 * What a fast path may look at: the payload before validation (its session id already checked). No
 * config: a fast path that needs it loads it with `fastPathConfig`, so the others do not carry it.
 */
export interface FastPathContext {
  payload: Readonly<Record<string, unknown>> & { session_id: string };
  env: Env;
  nowMs: number;
  projectDir: string;
}

/**
 * A hook whose module loads only when there is work: an executable carries the module as deferred code
 * (packages/build), compiled only then, with the schemas and the decision code.
 */
export interface LazyHook<S extends ConfigSection> {
  name: S;
  /**
   * True when there is nothing to do; must stay cheap (no transcript read, no spawn, no writes). Absent
   * for a hook that always has work (one run per compaction).
   */
  skip?(context: FastPathContext): boolean;
  load(): Promise<HookDefinition<any, S>>;
}

/** Where a hook's bytes come from and go to: the process's stdio (main), or a test driving it in-process. */
export interface HookIO {
  readInput(): Promise<string>;
  writeOutput(text: string): void;
  writeTrace(text: string): void;
}


/**
 * Runs one hook invocation end to end and decides nothing itself: reads stdin, validates, calls the
 * hook's `run`, prints its result. Fails open: whatever goes wrong is logged and the exit code is 0,
 * so carryover can never block a prompt or a compaction, nor blank the statusline.
 */
export async function runHook<S extends ConfigSection>(
  hook: HookDefinition<any, S> | LazyHook<S>,
  env: Env,
  io: HookIO,
): Promise<void> {
  const debug = isDebug(env);
  const startMs = Date.now();
  const trace = (message: string) => {
    if (debug) io.writeTrace(`carryover ${hook.name}: ${message}\n`);
  };
  const log = (message: string) => {
    trace(message);
    logLine(env, hook.name, message);
  };
  try {
    if (!isHookEnabled(env, hook.name)) return trace("disabled by CARRYOVER/CARRYOVER_DISABLE");
    const text = await io.readInput();
    if (text.trim() === "") return log("empty stdin; nothing to do");
    const payload = parsePayload(text);
    const oversized = oversizedPathField(payload);
    if (oversized) return log(`${oversized} of ${(payload[oversized] as string).length} chars is not a path; nothing to do`);
    const projectDir = projectDirOf(env, payload);
    const config = loadConfig(hook.name, env, projectDir);
    for (const problem of config.problems) log(`config: ${problem}`);
    let definition: HookDefinition<any, S>;
    if ("load" in hook) {
      if (hook.skip && isSafeSessionId(payload.session_id) && hook.skip({ payload: payload as FastPathContext["payload"], env, nowMs: startMs, projectDir })) {
        return trace(`fast path: nothing to do (${Date.now() - startMs} ms)`);
      }
      definition = await hook.load();
    } else {
      definition = hook;
    }
    const event = eventOf(payload, Object.keys(definition.inputs));
    if (!event) return log(`not registered for ${JSON.stringify(payload.hook_event_name)}`);
    const { parseHookInput } = await import("../schema/payloads.ts");
    const input = parseHookInput(event, definition.inputs[event], payload);
    const result = await definition.run({ input, event, env, nowMs: startMs, config, projectDir, log });
    if (result) io.writeOutput(typeof result === "string" ? result : JSON.stringify(result));
    trace(`${event} done in ${Date.now() - startMs} ms${result ? "" : " (no output)"}`);
  } catch (error) {
    log(errorMessage(error));
  }
}

function parsePayload(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`stdin is not JSON (${text.length} chars, starts ${JSON.stringify(text.slice(0, 24))})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("stdin is not a JSON object");
  return value as Record<string, unknown>;
}

function eventOf(payload: Record<string, unknown>, events: readonly string[]): HookEvent | null {
  const named = payload.hook_event_name;
  // The statusline's stdin has no hook_event_name.
  const event = typeof named === "string" ? named : "StatusLine";
  return events.includes(event) ? (event as HookEvent) : null;
}
