import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { type ParsedArgs, stringFlag } from "../../args.ts";
import type { Command } from "../../command.ts";
import { createContext } from "../../context.ts";
import { CliError, usageError } from "../../errors.ts";
import { applyChanges } from "../../install/apply.ts";
import type { Io } from "../../io.ts";
import { palette } from "../../output/color.ts";
import { planMarketplace } from "./_plan.ts";

const DEFAULT_NAME = "carryover";

function run(args: ParsedArgs, io: Io): number {
  const [target] = args.positionals;
  if (target === undefined) throw usageError("name the output dir: carryover marketplace DIR");
  const name = stringFlag(args.flags.name) ?? DEFAULT_NAME;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
    throw usageError(`--name must be lowercase letters, digits and dashes; got ${JSON.stringify(name)}`);
  const outDir = resolve(io.cwd, target);
  const ours = existsSync(join(outDir, ".claude-plugin", "marketplace.json"));
  if (existsSync(outDir) && readdirSync(outDir).length > 0 && !ours)
    throw new CliError(`${outDir} is not empty and holds no marketplace; choose an empty or new dir`);
  const context = createContext(io, args);
  applyChanges(planMarketplace(context.release, outDir, name), context.env, io.nowMs);
  const colors = palette(io);
  io.out(`${colors.green("✔")} marketplace "${name}" with ${context.release.entries.length} plugins in ${outDir}\n`);
  const example = context.release.entries.find((entry) => entry.recommended)?.name ?? "post-compact";
  io.out(`add it with: claude plugin marketplace add ${outDir}\n`);
  io.out(`then e.g.:   claude plugin install ${example}@${name}\n`);
  io.out(colors.dim("plugins cannot set the main status line: use `carryover install statusline` for it\n"));
  return 0;
}

export const marketplaceCommand: Command = {
  name: "marketplace",
  summary: "write a Claude Code plugin marketplace: one plugin per hook, the skill in its own",
  usage: "carryover marketplace DIR [--name NAME] [--from DIR]",
  help: `Writes a plugin marketplace for \`claude plugin marketplace add DIR\`: one plugin per hook (hooks.json
with \${CLAUDE_PLUGIN_ROOT}, the executable) and the compact-prep skill in its own plugin. Claude Code runs
a directory marketplace's plugins from DIR itself, so keep it in place. Works offline.`,
  run,
};
