import { dirname } from "node:path";
import type { ParsedArgs } from "../../args.ts";
import type { Command } from "../../command.ts";
import { createContext } from "../../context.ts";
import type { Io } from "../../io.ts";
import { palette } from "../../output/color.ts";
import { json, registrationLabel } from "../../output/display.ts";
import { installedSites, readLayers } from "../../settings/layers.ts";
import { carryoverPlugins } from "../../settings/plugins.ts";
import type { Scope } from "../../settings/scope.ts";

function run(args: ParsedArgs, io: Io): number {
  const colors = palette(io);
  const context = createContext(io, args);
  const layers = readLayers(context);
  const sites = installedSites(layers, context.owner);
  const names = context.release.entries.map((entry) => entry.name);
  const plugins = carryoverPlugins(context.env, layers, names, context.projectDir);
  const rows = context.release.entries.map((entry) => {
    const executables = new Set(entry.executables.map((executable) => executable.name));
    const skillDirs = Object.entries(context.installed.record.skills)
      .filter(([, skill]) => skill.hook === entry.name)
      .map(([dir]) => dir);
    const skillScopes = layers
      .filter((layer) => skillDirs.some((dir) => dirname(dir) === layer.paths.skillsDir))
      .map((layer) => layer.paths.scope);
    const siteScopes = sites.filter((site) => executables.has(site.executable)).map((site) => site.scope);
    const scopes = [...new Set<Scope>([...siteScopes, ...skillScopes])];
    const installedVersion =
      entry.executables
        .map((executable) => context.installed.record.executables[executable.name]?.version)
        .find(Boolean) ??
      skillDirs.map((dir) => context.installed.record.skills[dir]?.version).find(Boolean) ??
      null;
    return {
      name: entry.name,
      kind: entry.kind,
      version: entry.version,
      recommended: entry.recommended,
      description: entry.description,
      registrations: entry.registrations,
      installed: scopes,
      installedVersion,
      skillDirs,
      plugins: plugins.filter((plugin) => plugin.name === entry.name).map(({ key, scope }) => ({ key, scope })),
    };
  });
  if (args.flags.json) {
    io.out(json({ hooks: rows, problems: layers.flatMap((layer) => (layer.error ? [layer.error] : [])) }));
    return 0;
  }
  for (const row of rows) {
    const places = [...row.installed, ...row.plugins.map((plugin) => `plugin ${plugin.key} (${plugin.scope})`)];
    const where = places.length > 0 ? colors.green(`installed: ${places.join(", ")}`) : colors.dim("not installed");
    const twice =
      row.installed.length > 0 && row.plugins.length > 0 ? colors.red(" (runs twice: see carryover doctor)") : "";
    const version =
      row.installedVersion && row.installedVersion !== row.version
        ? `${row.version} (installed ${row.installedVersion})`
        : row.version;
    const events =
      row.registrations.map(registrationLabel).join(", ") || (row.kind === "skill" ? "skill" : "no events");
    const recommended = row.recommended ? colors.cyan(" recommended") : "";
    io.out(`${colors.bold(row.name)} ${version}${recommended} · ${events} · ${where}${twice}\n`);
    io.out(colors.dim(`  ${row.description}\n`));
  }
  for (const layer of layers) if (layer.error) io.err(`${colors.yellow("warning:")} ${layer.error}\n`);
  return 0;
}

export const listCommand: Command = {
  name: "list",
  summary: "every hook: events, what it does, version, where it is installed",
  usage: "carryover list [--json] [--from DIR] [--project DIR]",
  help: `Lists the hooks and skills of the release (the one this CLI ships, or --from DIR), the scopes of this project
whose settings run them, and those Claude Code runs as plugins here.`,
  run,
};
