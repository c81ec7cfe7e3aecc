import { dirname } from "node:path";
import { choice, type ParsedArgs } from "../../args.ts";
import type { Command } from "../../command.ts";
import { type Context, createContext, executablesOf } from "../../context.ts";
import { usageError } from "../../errors.ts";
import { applyChanges, retryOnConcurrentEdit } from "../../install/apply.ts";
import { describeBackups } from "../../install/backups.ts";
import { type Change, describeDryRun } from "../../install/changes.ts";
import { underInstallLock } from "../../install/lock.ts";
import { orphanExecutables, planExecutableRemoval } from "../../install/plan-executables.ts";
import { planSettingsRemoval } from "../../install/plan-settings.ts";
import { planSkillRemoval } from "../../install/plan-skills.ts";
import { PURGE_KEEPS, planPurge } from "../../install/purge.ts";
import { planMadeDirsRemoval, recordChange } from "../../install/record.ts";
import type { Io } from "../../io.ts";
import { unknownNameMessage } from "../../output/closest.ts";
import { palette } from "../../output/color.ts";
import { tildify } from "../../output/display.ts";
import { normalizeName } from "../../release/selection.ts";
import { installedSites, readLayers } from "../../settings/layers.ts";
import { SCOPES, scopePaths } from "../../settings/scope.ts";

function knownHooks(context: Context): string[] {
  const record = context.installed.record;
  const names = [
    ...context.release.entries.map((entry) => entry.name),
    ...Object.values(record.files).flatMap((file) => file.hooks),
    ...Object.values(record.executables).map((executable) => executable.hook),
    ...Object.values(record.skills).map((skill) => skill.hook),
  ];
  return [...new Set(names)];
}

function run(args: ParsedArgs, io: Io, removeWhenEmpty: string[] = []): number {
  const colors = palette(io);
  const context = createContext(io, args, { releaseOptional: true });
  const purge = args.flags.purge === true;
  const all = args.flags.all === true || purge;
  if (purge && args.positionals.length > 0) throw usageError("--purge removes all of carryover's; name no hooks");
  if (all === args.positionals.length > 0)
    throw usageError(all ? "name hooks or use --all, not both" : "name the hooks to uninstall, or use --all");
  const known = knownHooks(context);
  const hooks = new Set(
    all
      ? known
      : args.positionals.map((name) => {
          const normal = normalizeName(name);
          if (!known.includes(normal)) throw usageError(unknownNameMessage("hook", name, known));
          return normal;
        }),
  );
  const executables = new Set([...hooks].flatMap((hook) => executablesOf(context, hook)));
  // --all also takes carryover executables nothing knows any more (a renamed hook, a lost record).
  const unknown = new Set<string>();
  if (all) {
    for (const { executable } of installedSites(readLayers(context), context.owner)) {
      if (!(executable in context.installed.record.executables)) unknown.add(executable);
      executables.add(executable);
    }
    for (const executable of orphanExecutables(context)) unknown.add(executable);
  }

  const scopes = args.flags.scope === undefined ? [...SCOPES] : [choice(args.flags.scope, SCOPES, "--scope", "user")];
  const notes: string[] = [];
  const changes: Change[] = [];
  const skillDirs = new Set<string>();
  for (const scope of scopes.map((name) => scopePaths(name, context.env, context.projectDir))) {
    changes.push(...planSettingsRemoval(context, executables, hooks, scope));
    if (!skillDirs.has(scope.skillsDir)) changes.push(...planSkillRemoval(context, hooks, scope.skillsDir, notes));
    skillDirs.add(scope.skillsDir);
  }
  changes.push(...planExecutableRemoval(context, hooks, unknown));
  // Last, once what is in them is gone: the dirs an install made.
  const madeDirs: Change[] = [];
  for (const scope of new Set(
    scopes.map((name) => dirname(scopePaths(name, context.env, context.projectDir).settingsPath)),
  )) {
    madeDirs.push(...planMadeDirsRemoval(context.installed.record, scope));
  }
  const purged = purge ? planPurge(context.env, context.projectDir) : null;
  const record = recordChange(context.env, context.installed);
  const visible = changes.filter((change) => !(change.kind === "text" && change.internal));
  if (purged) changes.push(...purged.changes);
  if (record.before !== record.after) changes.push(record);
  if (purged) changes.push(...purged.last);
  changes.push(...madeDirs);
  // ~/.claude holds the install lock until this returns.
  removeWhenEmpty.push(...madeDirs.map((change) => change.path));

  if (args.flags["dry-run"]) {
    const idle = visible.length === 0 ? "dry run: nothing of carryover's to remove" : null;
    io.out(describeDryRun(changes, notes, colors, idle));
    return 0;
  }
  const backups = applyChanges(changes, context.env, io.nowMs, { backUpFiles: !purge });
  for (const change of visible.filter((one) => !purged?.covers(one.path))) {
    if (change.kind === "text") {
      const what = change.restored
        ? change.after === null
          ? "removed (carryover created it)"
          : "restored to its bytes before carryover"
        : "updated";
      io.out(`${colors.green("✔")} ${tildify(change.path, context.env)}: ${what}\n`);
    } else if (change.kind === "remove") io.out(`${colors.green("✔")} removed ${tildify(change.path, context.env)}\n`);
  }
  for (const { where, files } of purged?.counts ?? []) {
    const count = `${files} file${files === 1 ? "" : "s"}`;
    io.out(`${colors.green("✔")} removed carryover's data: ${count} in ${tildify(where, context.env)}\n`);
  }
  if (visible.length === 0 && (purged?.counts.length ?? 0) === 0)
    io.out(colors.dim("nothing of carryover's to remove\n"));
  io.out(describeBackups(backups, context.env, colors));
  for (const note of notes) io.out(`${note}\n`);
  if (purged) io.out(`${PURGE_KEEPS}\n`);
  return 0;
}

export const uninstallCommand: Command = {
  name: "uninstall",
  summary: "remove hooks: only carryover's entries, a chained status line put back",
  usage:
    "carryover uninstall [hook… | --all | --purge] [--scope user|project|local] [--project DIR] [--from DIR]" +
    " [--dry-run]",
  help: `Removes only carryover's entries from settings.json (every scope of this project unless --scope is
given) and restores a status line carryover chained or replaced. When nothing else in the file changed since
the install, it gets its exact pre-install bytes back. Executables go once no settings file uses them.

  --purge   also removes carryover's own data: sessions, logs, backups, config, the state files of its sessions`,
  run: (args, io) => underInstallLock(args, io, (_, later) => retryOnConcurrentEdit(() => run(args, io, later))),
};
