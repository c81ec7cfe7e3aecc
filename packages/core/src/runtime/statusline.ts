import { writeSync } from "node:fs";
import { loadConfig } from "../config/load.ts";
import type { ConfigTable } from "../config/table.ts";
import type { Env } from "../env.ts";
import { errorMessage } from "../errors.ts";
import { openSession } from "../session/session.ts";
import { readCall } from "./_call.ts";
import { readStdinSync, STATUSLINE_STDIN_LIMITS } from "./_stdin.ts";
import type { HookIO, StatusLineDefinition } from "./definition.ts";
import { logLine } from "./log.ts";
import { isDebug, isHookEnabled } from "./switches.ts";

/** The status line's bin file: one render on the process's stdio, then exit 0 (a non-zero exit blanks the line). */
export function statusLineMain<T extends ConfigTable>(line: StatusLineDefinition<T>): void {
  const io: HookIO = {
    readInput: () => new Promise((resolve) => resolve(readStdinSync(STATUSLINE_STDIN_LIMITS))),
    writeOutput: (text) => writeSync(1, text),
    writeTrace: (text) => writeSync(2, text),
  };
  const exit = () => process.exit(0);
  runStatusLine(line, process.env, io).then(exit, exit);
}

/**
 * One render, read and checked as a hook's stdin is (`readCall`), but it always prints: a stdin it cannot
 * read or parse still shows the chained command's line, and a render that throws shows `fallbackLine`.
 */
export async function runStatusLine<T extends ConfigTable>(line: StatusLineDefinition<T>, env: Env, io: HookIO) {
  const startMs = Date.now();
  const log = (message: string) => {
    if (isDebug(env)) io.writeTrace(`carryover ${line.name}: ${message}\n`);
    logLine(env, line.name, message);
  };
  let text: string;
  try {
    // A stdin that cannot be read is an empty one: the chained command still runs.
    const stdinText = await io.readInput().catch((error: unknown) => {
      log(`stdin: ${errorMessage(error)}`);
      return "";
    });
    const call = readCall(stdinText, env);
    if (call.refusal && stdinText.trim() !== "") log(call.refusal);
    const config = loadConfig(line.name, line.keys, env, call.projectDir);
    for (const problem of config.problems) log(`config: ${problem}`);
    const session = call.sessionId ? openSession(env, call.sessionId) : null;
    const enabled = isHookEnabled(env, line.name);
    const { payload, projectDir } = call;
    text = await line.render({ stdinText, payload, session, env, nowMs: startMs, config, projectDir, enabled, log });
  } catch (error) {
    log(errorMessage(error));
    text = line.fallbackLine;
  }
  if (text) io.writeOutput(text);
}
