import type { FlagSpec, ParsedArgs } from "./args.ts";
import type { Io } from "./io.ts";

export interface Command {
  name: string;
  summary: string;
  /** The help text after the usage line; a function when it lists what the release holds. */
  help: string | ((io: Io) => string);
  /**
   * The synopsis `--help` prints, and what the command accepts (`usageSpec`): each `[…]` or bare word is one
   * argument slot (`hook…`: any number) unless all its `|`-alternatives are flags; `--flag WORD` takes a value.
   */
  usage: string;
  run(args: ParsedArgs, io: Io): number | Promise<number>;
}

export interface UsageSpec {
  flags: FlagSpec;
  /** How many arguments it takes at most, besides flags; more are refused before it runs. */
  maxPositionals: number;
}

/** The flags and argument slots of a usage line like `carryover status [ID | --session ID] [--json]`. */
export function usageSpec(usage: string): UsageSpec {
  const flags: FlagSpec = { help: "boolean" };
  let maxPositionals = 0;
  const slots = usage.match(/\[[^\]]*\]|[^\s[\]]+/g)?.slice(2) ?? [];
  for (const slot of slots) {
    const alternatives = slot
      .replace(/^\[|\]$/g, "")
      .split(" | ")
      .map((alternative) => alternative.trim().split(" ") as [string, string?]);
    for (const [word, value] of alternatives) {
      if (word.startsWith("--")) flags[word.slice(2)] = value === undefined ? "boolean" : "string";
    }
    const argumentWords = alternatives.map(([word]) => word).filter((word) => !word.startsWith("--"));
    if (argumentWords.some((word) => word.endsWith("…"))) maxPositionals = Number.POSITIVE_INFINITY;
    else if (argumentWords.length > 0) maxPositionals += 1;
  }
  return { flags, maxPositionals };
}
