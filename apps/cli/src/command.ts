import type { FlagSpec, ParsedArgs } from "./args.ts";
import type { Io } from "./io.ts";

export interface Command {
  name: string;
  summary: string;
  /** The help text after the usage line. */
  help: string;
  usage: string;
  flags: FlagSpec;
  run(args: ParsedArgs, io: Io): number | Promise<number>;
}
