import { usageError } from "./errors.ts";
import { closest } from "./output/closest.ts";

export type FlagSpec = Record<string, "boolean" | "string">;

export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | boolean | undefined>;
}

/** `--flag`, `--flag value`, `--flag=value`, `--` ends flags. Unknown flags fail with the nearest known one. */
export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const positionals: string[] = [];
  const flags: ParsedArgs["flags"] = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--") || arg === "-") {
      if (arg === "-h") flags.help = true;
      else if (arg.startsWith("-") && arg.length > 1 && !/^-\d/.test(arg))
        throw usageError(`unknown option ${arg}; options are spelled --name`);
      else positionals.push(arg);
      continue;
    }
    const [name, inline] = splitOnce(arg.slice(2), "=");
    const kind = spec[name];
    if (kind === undefined) {
      const suggestion = closest(name, Object.keys(spec));
      throw usageError(`unknown option --${name}${suggestion ? `; did you mean --${suggestion}?` : ""}`);
    }
    if (kind === "boolean") {
      if (inline !== undefined) throw usageError(`--${name} takes no value`);
      flags[name] = true;
    } else {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith("--")))
        throw usageError(`--${name} needs a value`);
      flags[name] = value;
    }
  }
  return { positionals, flags };
}

/** The flag's value when it is one of `choices`, else a usage error naming them. */
export function choice<const T extends string>(
  value: string | boolean | undefined,
  choices: readonly T[],
  flag: string,
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (choices as readonly string[]).includes(value)) return value as T;
  throw usageError(`${flag} must be one of ${choices.join(", ")}; got ${JSON.stringify(value)}`);
}

export function stringFlag(value: string | boolean | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
