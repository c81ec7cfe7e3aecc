import { CarryoverError } from "@carryover/core";

export const COMMANDS = ["session-id", "path", "init", "write", "verify", "show", "workers", "help"] as const;
type Command = (typeof COMMANDS)[number];

export interface StateArgs {
  command: Command;
  /** `--session <id>`; empty counts as absent, so an unsubstituted `"${CLAUDE_SESSION_ID}"` falls back to the env. */
  session?: string | undefined;
  force: boolean;
}

function usageError(message: string): CarryoverError {
  return new CarryoverError("BAD_INPUT", `${message} (see carryover-state help)`);
}

/** `<command> [--session <id> | --session=<id>] [--force]`; anything else is a one-line error. */
export function parseArgs(argv: readonly string[]): StateArgs {
  let command: Command | undefined;
  let session: string | undefined;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--session") {
      const value = argv[i + 1];
      if (value === undefined) throw usageError("--session needs a value");
      session = value;
      i += 1;
    } else if (arg.startsWith("--session=")) {
      session = arg.slice("--session=".length);
    } else if (arg === "--force") {
      force = true;
    } else if (arg === "--help" || arg === "-h") {
      command = "help";
    } else if (arg.startsWith("-")) {
      throw usageError(`unknown option ${JSON.stringify(arg)}`);
    } else if (command === undefined) {
      if (!(COMMANDS as readonly string[]).includes(arg)) throw usageError(`unknown command ${JSON.stringify(arg)}`);
      command = arg as Command;
    } else if (command !== "help") {
      throw usageError(`unexpected argument ${JSON.stringify(arg)}`);
    }
  }
  if (command === undefined) throw usageError("no command given");
  if (force && command !== "init") throw usageError(`--force applies to init only, not ${command}`);
  return { command, session: session?.trim() || undefined, force };
}
