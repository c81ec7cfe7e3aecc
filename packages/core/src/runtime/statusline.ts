import { writeSync } from "node:fs";
import { type Config, loadConfig } from "../config/load.ts";
import type { Env } from "../env.ts";
import { errorMessage } from "../errors.ts";
import { logLine } from "./log.ts";
import { isPathText } from "./_path-text.ts";
import type { HookIO } from "./run-hook.ts";
import { readStdinSync, STATUSLINE_STDIN_LIMITS } from "./_stdin.ts";
import { isDebug, isHookEnabled } from "./switches.ts";

export interface StatusLineContext {
  /** stdin exactly as read: a chained status line command gets these bytes. */
  stdinText: string;
  /** stdin parsed; null when it was empty or not a JSON object. */
  payload: Record<string, unknown> | null;
  env: Env;
  nowMs: number;
  config: Config<"statusline">;
  projectDir: string;
  /** False under `CARRYOVER=0` or `CARRYOVER_DISABLE=statusline`: only a chained command's output may show. */
  enabled: boolean;
  log(message: string): void;
}

/**
 * The status line is not a hook: it always prints, its stdin goes on to a chained command unchanged,
 * and a switched-off carryover must still show the user's own status line.
 */
export interface StatusLineCommand {
  render(context: StatusLineContext): string | Promise<string>;
  /** Printed when `render` throws: a status line command that prints nothing leaves the line blank. */
  fallbackLine: string;
}

const NAME = "statusline";

const processIO: HookIO = {
  readInput: () => new Promise((resolve) => resolve(readStdinSync(STATUSLINE_STDIN_LIMITS))),
  writeOutput: (text) => writeSync(1, text),
  writeTrace: (text) => writeSync(2, text),
};

/** Runs the status line command once; fails open to `fallbackLine`, never to nothing. */
export async function runStatusLine(command: StatusLineCommand, env: Env = process.env, io: HookIO = processIO): Promise<void> {
  const startMs = Date.now();
  const debug = isDebug(env);
  const log = (message: string) => {
    if (debug) io.writeTrace(`carryover ${NAME}: ${message}\n`);
    logLine(env, NAME, message);
  };
  let line: string;
  try {
    let stdinText = "";
    try {
      stdinText = await io.readInput();
    } catch (error) {
      log(`stdin: ${errorMessage(error)}`);
    }
    const payload = parseObject(stdinText);
    if (!payload && stdinText.trim() !== "") log(`stdin is not a JSON object (${stdinText.length} chars, starts ${JSON.stringify(stdinText.slice(0, 24))})`);
    const projectDir = env.CLAUDE_PROJECT_DIR || projectDirOf(payload) || process.cwd();
    const config = loadConfig(NAME, env, projectDir);
    for (const problem of config.problems) log(`config: ${problem}`);
    const enabled = isHookEnabled(env, NAME);
    line = await command.render({ stdinText, payload, env, nowMs: startMs, config, projectDir, enabled, log });
  } catch (error) {
    log(errorMessage(error));
    line = command.fallbackLine;
  }
  if (line) io.writeOutput(line);
}

/** The bin file's call: run, then exit 0 whatever happened (a non-zero exit blanks the line). */
export function statusLineMain(command: StatusLineCommand): void {
  runStatusLine(command).finally(() => process.exit(0));
}

function parseObject(text: string): Record<string, unknown> | null {
  if (text.trim() === "") return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function projectDirOf(payload: Record<string, unknown> | null): string | undefined {
  const workspace = payload?.workspace as Record<string, unknown> | undefined;
  const dir = workspace?.project_dir ?? payload?.cwd;
  return isPathText(dir) && dir !== "" ? dir : undefined;
}
