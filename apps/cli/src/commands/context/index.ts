import { CONTEXT_HELP, runContextReport } from "@carryover/context-report";
import { type ParsedArgs, stringFlag } from "../../args.ts";
import type { Command } from "../../command.ts";
import type { Io } from "../../io.ts";

async function run(args: ParsedArgs, io: Io): Promise<number> {
  await runContextReport(
    { target: args.positionals[0], htmlPath: stringFlag(args.flags.html), json: args.flags.json === true },
    {
      env: io.env,
      cwd: io.cwd,
      nowMs: io.nowMs,
      stdout: { isTTY: io.stdoutIsTty, columns: io.stdoutColumns, write: io.out },
      stderr: { isTTY: io.stderrIsTty === true, write: io.err },
    },
  );
  return 0;
}

export const contextCommand: Command = {
  name: "context",
  summary: "what fills a session's context, how it grew, what to do (offline /context all)",
  usage: "carryover context [SESSION_ID | TRANSCRIPT] [--html FILE] [--json]",
  help: CONTEXT_HELP,
  run,
};
