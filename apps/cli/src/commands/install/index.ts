import { join } from "node:path";
import { choice, type ParsedArgs } from "../../args.ts";
import type { Command } from "../../command.ts";
import { createContext } from "../../context.ts";
import { CliError } from "../../errors.ts";
import { applyChanges, retryOnConcurrentEdit } from "../../install/apply.ts";
import { describeBackups } from "../../install/backups.ts";
import { type Change, describeDryRun } from "../../install/changes.ts";
import { underInstallLock } from "../../install/lock.ts";
import { chooseNode, NODE_LINK } from "../../install/node.ts";
import { planExecutables, planNodeLink } from "../../install/plan-executables.ts";
import { planSettingsInstall } from "../../install/plan-settings.ts";
import { planSkillInstall } from "../../install/plan-skills.ts";
import { recordChange, recordMadeDirs } from "../../install/record.ts";
import type { Io } from "../../io.ts";
import { palette } from "../../output/color.ts";
import { registrationLabel, tildify } from "../../output/display.ts";
import { STATUS_LINE_EVENT } from "../../release/manifest.ts";
import { choices, selectEntries } from "../../release/selection.ts";
import { readLayers } from "../../settings/layers.ts";
import { carryoverPlugins } from "../../settings/plugins.ts";
import { SCOPES, scopePaths } from "../../settings/scope.ts";
import { STATUS_LINE_MODES } from "../../settings/statusline-slot.ts";
import { nextSteps } from "./_next.ts";

function run(args: ParsedArgs, io: Io, madeDirs: readonly string[]): number {
  const colors = palette(io);
  const context = createContext(io, args);
  const scope = scopePaths(choice(args.flags.scope, SCOPES, "--scope", "user"), context.env, context.projectDir);
  const mode = choice(args.flags.statusline, STATUS_LINE_MODES, "--statusline", "chain");
  const notes: string[] = [];
  let entries = selectEntries(
    context.release,
    args.positionals,
    { all: args.flags.all === true, recommended: args.flags.recommended === true },
    "install",
  );
  if (mode === "skip") {
    const skipped = entries.filter((entry) =>
      entry.registrations.some((registration) => registration.event === STATUS_LINE_EVENT),
    );
    entries = entries.filter((entry) => !skipped.includes(entry));
    for (const entry of skipped)
      notes.push(`skipped ${entry.name} (--statusline skip): the status line slot is left alone`);
  }
  const layers = readLayers(context);
  const asPlugin = carryoverPlugins(
    context.env,
    layers,
    entries.map((entry) => entry.name),
    context.projectDir,
  )[0];
  if (asPlugin && args.flags.force !== true) {
    throw new CliError(
      `${asPlugin.name} is already installed as the Claude Code plugin ${asPlugin.key} (${asPlugin.scope} scope) and ` +
        `would run twice; remove the plugin first (claude plugin uninstall ${asPlugin.key}), or pass --force ` +
        "(nothing was written)",
    );
  }
  const runsHooks = entries.some((entry) => entry.registrations.length > 0);
  const { node, warnings } = runsHooks ? chooseNode(context.env) : { node: null, warnings: [] };
  const changes: Change[] = [
    ...planExecutables(context, entries),
    ...planNodeLink(context, node),
    ...entries.flatMap((entry) => planSkillInstall(context, entry, scope.skillsDir, args.flags.force === true)),
    ...planSettingsInstall(context, entries, scope, layers, mode, notes),
  ];
  recordMadeDirs(context.installed.record, changes, context.env, madeDirs);
  const record = recordChange(context.env, context.installed);
  if (record.before !== record.after) changes.push(record);

  if (args.flags["dry-run"]) {
    const idle = changes.length === 0 ? "dry run: already installed, nothing to change" : null;
    io.out(describeDryRun(changes, notes, colors, idle));
    return 0;
  }
  const backups = applyChanges(changes, context.env, io.nowMs);
  const where = tildify(scope.settingsPath, context.env);
  for (const entry of entries) {
    const targets = [
      ...(entry.registrations.length > 0
        ? [`${entry.registrations.map(registrationLabel).join(", ")} in ${where}`]
        : []),
      ...entry.skills.map((skill) => `skill /${skill.name} in ${tildify(scope.skillsDir, context.env)}`),
      ...(entry.registrations.length === 0
        ? entry.executables.map((executable) => `${executable.name} in ${tildify(context.binDir, context.env)}`)
        : []),
    ];
    io.out(`${colors.green("✔")} ${colors.bold(entry.name)} ${entry.version}: ${targets.join("; ")}\n`);
  }
  if (node) {
    const link =
      process.platform === "win32" ? "" : `, linked as ${tildify(join(context.binDir, NODE_LINK), context.env)}`;
    io.out(`hooks run with node ${node.version}: ${tildify(node.path, context.env)}, ${node.why}${link}\n`);
  }
  for (const warning of warnings) io.out(colors.yellow(`warning: ${warning}\n`));
  if (changes.length === 0) io.out(colors.dim("already installed: nothing changed\n"));
  io.out(describeBackups(backups, context.env, colors));
  for (const note of notes) io.out(`${note}\n`);
  if (changes.length > 0) for (const line of nextSteps(entries)) io.out(`${line}\n`);
  if (scope.scope !== "user" && entries.some((entry) => entry.registrations.length > 0)) {
    io.out(
      colors.yellow(
        `note: Claude Code runs ${scope.scope}-scope hooks only in a folder you have trusted, ` +
          `and these entries name this machine's ${tildify(context.binDir, context.env)}\n`,
      ),
    );
  }
  return 0;
}

export const installCommand: Command = {
  name: "install",
  summary: "install hooks: copy their executables, register them in settings.json",
  usage:
    "carryover install [hook…] [--all | --recommended] [--scope user|project|local] [--project DIR]" +
    " [--statusline chain|replace|skip] [--from DIR] [--force] [--dry-run]",
  help: (io) => `Copies each hook's prebuilt executable into ~/.claude/carryover/bin/ (checked against the release
manifest's sha256) and registers it in the scope's settings.json; every other key and hook stays. Installing
twice changes nothing. An existing status line is chained by default (--statusline replace displaces it,
skip leaves the slot alone); uninstall puts it back. Each changed file is backed up first.

Hooks and skills (* recommended; carryover list says what each does):
${choices(io)}

  --all              every hook and skill
  --recommended      the recommended ones
  --scope user       ~/.claude/settings.json (default)
  --scope project    .claude/settings.json of the project (--project DIR, default the current dir)
  --scope local      .claude/settings.local.json of the project
  --statusline MODE  chain (default) an existing status line, replace it, or skip the statusline
  --from DIR         install from a release dir instead of the executables this CLI ships
  --force            overwrite a skill file carryover did not install; install a hook its plugin also runs
  --dry-run          print a unified diff of what would change; write nothing`,
  run: (args, io) => underInstallLock(args, io, (made) => retryOnConcurrentEdit(() => run(args, io, made))),
};
