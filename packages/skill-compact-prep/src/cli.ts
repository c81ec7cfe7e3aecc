import { CarryoverError, type Env, errorMessage, readFileNoFollow, STATE_HEADERS } from "@carryover/core";
import { parseArgs, type StateArgs } from "./args.ts";
import { initState } from "./init.ts";
import { locateState } from "./location.ts";
import { stateProblem } from "./problem.ts";
import { resolveSessionId } from "./session.ts";
import { readInput, writeState } from "./write.ts";

export interface CliIO {
  env: Env;
  cwd: string;
  nowMs: number;
  /** What `write` saves: the whole state document. */
  stdin: AsyncIterable<string | Uint8Array> & { isTTY?: boolean | undefined };
  out(text: string): void;
  err(text: string): void;
}

const USAGE = `usage: carryover-state <command> [--session <id>] [--force]

The compact-prep state file of one Claude Code session. The session id comes from --session, else from
CLAUDE_CODE_SESSION_ID (set in Claude Code's Bash tool commands).

  session-id   print the session id
  path         print the state file's path
  init         write a template with every header; an existing state is replaced only with --force,
               and is then kept as <path>.bak
  write        save the whole state document read from stdin, once it passes verify's checks (a
               heredoc: works where the Write tool is refused, as in plan mode); else nothing changes
  verify       check that every header is present, in order, and that the sections are filled
  show         print the state file
  workers      print the workers Claude Code recorded (background shells, monitors, subagents, crons) and
               the tmux panes of this window: the facts for ## Worker Topology
`;

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

/**
 * The whole CLI: returns the exit code (`workers` reads a transcript and `write` stdin: a promise); every failure is
 * one line on stderr.
 */
export function runStateCli(argv: readonly string[], io: CliIO): number | Promise<number> {
  const failed = (error: unknown) => {
    io.err(`carryover-state: ${errorMessage(error)}\n`);
    return error instanceof CarryoverError && error.code === "BAD_INPUT" ? EXIT_USAGE : EXIT_FAILED;
  };
  try {
    const args = parseArgs(argv);
    if (args.command === "help") {
      io.out(USAGE);
      return 0;
    }
    if (args.command === "workers") {
      const sessionId = resolveSessionId(args.session, io.env);
      // Only this command reads a transcript: the others do not load the reader.
      return import("./workers.ts")
        .then(({ workersText }) => workersText(sessionId, io.env, io.cwd))
        .then((text) => {
          io.out(text);
          return 0;
        }, failed);
    }
    if (args.command === "write") {
      const sessionId = resolveSessionId(args.session, io.env);
      return readInput(io.stdin)
        .then((text) => saveState(sessionId, text, io))
        .catch(failed);
    }
    return runCommand(args, io);
  } catch (error) {
    return failed(error);
  }
}

function runCommand(args: StateArgs, io: CliIO): number {
  const sessionId = resolveSessionId(args.session, io.env);
  if (args.command === "session-id") {
    io.out(`${sessionId}\n`);
    return 0;
  }
  const location = locateState(sessionId, io.env, io.cwd);
  const { path, problems } = location;
  for (const problem of problems) io.err(`carryover-state: config: ${problem}\n`);
  switch (args.command) {
    case "path":
      io.out(`${path}\n`);
      return 0;
    case "init": {
      const { backupPath } = initState(location, sessionId, io.nowMs, args.force);
      const kept = backupPath ? `; the previous state is kept in ${backupPath}` : "";
      io.out(`Wrote the template with all ${STATE_HEADERS.length} headers to ${path}${kept}\n`);
      return 0;
    }
    case "verify":
      return verify(path, io);
    default:
      io.out(readState(path));
      return 0;
  }
}

function saveState(sessionId: string, text: string | null, io: CliIO): number {
  const location = locateState(sessionId, io.env, io.cwd);
  for (const problem of location.problems) io.err(`carryover-state: config: ${problem}\n`);
  const problem = writeState(location, text);
  if (problem) {
    io.err(`carryover-state: nothing written, ${location.path} is unchanged: ${problem}\n`);
    return EXIT_FAILED;
  }
  io.out(`Saved the state to ${location.path}: all ${STATE_HEADERS.length} headers present, in order\n`);
  return 0;
}

function readState(path: string): string {
  const text = readFileNoFollow(path);
  if (text === null)
    throw new CarryoverError(
      "NOT_FOUND",
      `no state file at ${path}; run carryover-state init (or /compact-prep) first`,
    );
  return text;
}

function verify(path: string, io: CliIO): number {
  const problem = stateProblem(readState(path));
  if (problem) {
    io.err(`carryover-state: ${path}: ${problem}\n`);
    return EXIT_FAILED;
  }
  io.out(`${path}: all ${STATE_HEADERS.length} headers present, in order\n`);
  return 0;
}
