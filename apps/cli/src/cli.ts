import { isDebug } from "@carryover/core";
import { parseArgs } from "./args.ts";
import { type Command, usageSpec } from "./command.ts";
import { configCommand } from "./commands/config/index.ts";
import { contextCommand } from "./commands/context/index.ts";
import { doctorCommand } from "./commands/doctor/index.ts";
import { installCommand } from "./commands/install/index.ts";
import { listCommand } from "./commands/list/index.ts";
import { marketplaceCommand } from "./commands/marketplace/index.ts";
import { statusCommand } from "./commands/status/index.ts";
import { uninstallCommand } from "./commands/uninstall/index.ts";
import { describeError, exitCodeOf, usageError } from "./errors.ts";
import type { Io } from "./io.ts";
import { unknownNameMessage } from "./output/closest.ts";

export const COMMANDS: readonly Command[] = [
  listCommand,
  installCommand,
  uninstallCommand,
  configCommand,
  doctorCommand,
  statusCommand,
  contextCommand,
  marketplaceCommand,
];

function overview(version: string): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  const lines = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return (
    `carryover ${version}: Claude Code hooks that keep long sessions coherent across compaction\n\n` +
    "usage: carryover <command> [options]\n\n" +
    `${lines.join("\n")}\n\n` +
    "Run `carryover <command> --help` for a command's options. Read commands take --json.\n"
  );
}

/** Runs one command line; the only place that turns a thrown error into a message and an exit code. */
export async function runCli(argv: readonly string[], io: Io, version: string): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (name === undefined || name === "help" || name === "--help" || name === "-h") {
      const topic = name === "help" ? COMMANDS.find((command) => command.name === rest[0]) : undefined;
      io.out(topic ? commandHelp(topic, io) : overview(version));
      return 0;
    }
    if (name === "--version" || name === "-v") {
      io.out(`${version}\n`);
      return 0;
    }
    const command = COMMANDS.find((candidate) => candidate.name === name);
    if (!command) {
      const names = COMMANDS.map((candidate) => candidate.name);
      throw usageError(unknownNameMessage("command", name, names));
    }
    const { flags, maxPositionals } = usageSpec(command.usage);
    const args = parseArgs(rest, flags);
    if (args.flags.help) {
      io.out(commandHelp(command, io));
      return 0;
    }
    const extra = args.positionals.slice(maxPositionals);
    if (extra.length > 0) {
      const takes = maxPositionals === 0 ? "no arguments" : `at most ${maxPositionals}`;
      const got = extra.map((word) => JSON.stringify(word)).join(" ");
      throw usageError(`${name} takes ${takes}; got ${got} too (usage: ${command.usage})`);
    }
    return await command.run(args, io);
  } catch (error) {
    io.err(`carryover: ${describeError(error)}\n`);
    // CARRYOVER_DEBUG=1: where a failure came from, for a bug report.
    if (isDebug(io.env) && error instanceof Error && error.stack) io.err(`${error.stack}\n`);
    return exitCodeOf(error);
  }
}

function commandHelp(command: Command, io: Io): string {
  return `usage: ${command.usage}\n\n${typeof command.help === "string" ? command.help : command.help(io)}\n`;
}
