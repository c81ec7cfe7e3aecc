import { writeSync } from "node:fs";
import type { ConfigSection } from "./config-keys.ts";
import { type Config, loadConfig } from "./config.ts";
import type { Env } from "./env.ts";
import { errorMessage } from "./errors.ts";
import { logLine } from "./log.ts";
import type { HookResult } from "./output.ts";
import { type HookEvent, type HookInput, type HookInputs, parseHookInput } from "./schemas.ts";
import { readStdin } from "./_stdin.ts";
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

const STDIN_LIMITS = { maxBytes: 16 * 1024 * 1024, timeoutMs: 5_000 };

/** Where a hook's bytes come from and go to; the process's stdio unless a test drives it in-process. */
export interface HookIO {
  readInput(): Promise<string>;
  writeOutput(text: string): void;
  writeTrace(text: string): void;
}

const processIO: HookIO = {
  readInput: () => readStdin(STDIN_LIMITS),
  writeOutput: (text) => writeSync(1, text),
  writeTrace: (text) => writeSync(2, text),
};

/**
 * Runs one hook invocation end to end and decides nothing itself: reads stdin, validates, calls the
 * hook's `run`, prints its result. Fails open: whatever goes wrong is logged and the exit code is 0,
 * so carryover can never block a prompt or a compaction, nor blank the statusline.
 */
export async function runHook<E extends HookEvent, S extends ConfigSection>(
  hook: HookDefinition<E, S>,
  env: Env = process.env,
  io: HookIO = processIO,
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
    const event = eventOf(payload, Object.keys(hook.inputs) as E[]);
    if (!event) return log(`not registered for ${JSON.stringify(payload.hook_event_name)}`);
    const input = parseHookInput(event, hook.inputs[event], payload);
    const projectDir = env.CLAUDE_PROJECT_DIR || (input as { cwd?: string }).cwd || process.cwd();
    const config = loadConfig(hook.name, env, projectDir);
    for (const problem of config.problems) log(`config: ${problem}`);
    const result = await hook.run({ input, event, env, nowMs: startMs, config, projectDir, log });
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

function eventOf<E extends HookEvent>(payload: Record<string, unknown>, events: readonly E[]): E | null {
  const named = payload.hook_event_name;
  // The statusline's stdin has no hook_event_name.
  const event = (typeof named === "string" ? named : "StatusLine") as E;
  return events.includes(event) ? event : null;
}

/** The two-line bin file's call: run, then exit 0 whatever happened. */
export function main<E extends HookEvent, S extends ConfigSection>(hook: HookDefinition<E, S>): void {
  runHook(hook).finally(() => process.exit(0));
}
