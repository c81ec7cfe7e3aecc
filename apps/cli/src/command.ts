import type { FlagSpec, ParsedArgs } from "./args.ts";
import type { Io } from "./io.ts";

export interface Command {
  name: string;
  summary: string;
  /** The help text after the usage line; a function when it lists what the release holds. */
  help: string | ((io: Io) => string);
  /** Every flag of `flags` appears in it (checked by a test). */
  usage: string;
  flags: FlagSpec;
  /** How many arguments it takes at most, besides flags; more are refused before it runs. */
  maxPositionals: number;
  run(args: ParsedArgs, io: Io): number | Promise<number>;
}
