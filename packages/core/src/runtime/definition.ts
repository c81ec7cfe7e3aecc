import type { Config } from "../config/load.ts";
import type { ConfigTable } from "../config/table.ts";
import type { Env } from "../env.ts";
import type { HookEvent, HookInput } from "../schema/payloads.ts";
import type { Session, SessionPaths } from "../session/session.ts";
import type { HookResult } from "./output.ts";

/**
 * What a probe may look at: the payload as parsed, before validation, its session id and path fields
 * already checked. It decides on a few small files and never writes, creates a dir or spawns.
 */
export interface ProbeContext {
  readonly name: string;
  payload: Readonly<Record<string, unknown>> & { session_id: string };
  env: Env;
  nowMs: number;
  projectDir: string;
  /** Paths only: a probe reads, never writes or creates a dir. */
  session: SessionPaths;
  /** Set by `probeConfig`: run gets this config instead of loading it again. */
  loadedConfig?: Config<ConfigTable> | undefined;
}

export interface HookContext<E extends HookEvent, T extends ConfigTable> {
  input: HookInput<E>;
  event: E;
  env: Env;
  nowMs: number;
  config: Config<T>;
  /** The project root: `CLAUDE_PROJECT_DIR`, else the payload's cwd. */
  projectDir: string;
  session: Session;
  /** A line to the carryover log (and to stderr with CARRYOVER_DEBUG=1). */
  log(message: string): void;
}

/**
 * A hook's whole decision. `probe` (absent for a hook that always has work) is its fast path: null when
 * there is nothing to do, else what it found, which `run` gets instead of looking again.
 */
export interface HookDefinition<E extends HookEvent, T extends ConfigTable, F = undefined> {
  /** Also its config section and the name `CARRYOVER_DISABLE` takes. */
  name: string;
  /** The events it accepts; core validates each payload with the event's schema before run. */
  events: readonly E[];
  /** Its config keys (`src/config.ts`), loaded with run: `() => import("./config.ts")`. */
  config(): Promise<{ keys: T }>;
  probe?(context: ProbeContext): F | null;
  run(context: HookContext<E, T>, found: F): HookResult | Promise<HookResult>;
}

export interface StatusLineContext<T extends ConfigTable = ConfigTable> {
  /** stdin exactly as read: a chained status line command gets these bytes. */
  stdinText: string;
  /** stdin parsed; null when it was empty, not a JSON object, or held a path field too long to be a path. */
  payload: Record<string, unknown> | null;
  /** Null when the payload has no safe session id: the line still shows, nothing is recorded. */
  session: Session | null;
  env: Env;
  nowMs: number;
  config: Config<T>;
  projectDir: string;
  /** False under `CARRYOVER=0` or `CARRYOVER_DISABLE=statusline`: only a chained command's output may show. */
  enabled: boolean;
  log(message: string): void;
}

/**
 * The status line is not a hook: it always prints, its stdin goes on to a chained command unchanged, and
 * a switched-off carryover must still show the user's own status line.
 */
export interface StatusLineDefinition<T extends ConfigTable = ConfigTable> {
  name: "statusline";
  /** Its config keys. */
  keys: T;
  render(context: StatusLineContext<T>): string | Promise<string>;
  /** Printed when `render` throws: a status line command that prints nothing leaves the line blank. */
  fallbackLine: string;
}

/** Where an invocation's bytes come from and go to: the process's stdio, or a test driving it in-process. */
export interface HookIO {
  readInput(): Promise<string>;
  writeOutput(text: string): void;
  writeTrace(text: string): void;
}
