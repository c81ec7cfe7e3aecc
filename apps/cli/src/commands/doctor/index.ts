import type { ParsedArgs } from "../../args.ts";
import type { Command } from "../../command.ts";
import { createContext, knownNames } from "../../context.ts";
import type { CheckGroup, DoctorFacts } from "../../doctor/checks.ts";
import { claudeChecks } from "../../doctor/claude.ts";
import { configChecks } from "../../doctor/env.ts";
import { executableChecks } from "../../doctor/executables.ts";
import { memoryChecks } from "../../doctor/memory.ts";
import { nodeChecks } from "../../doctor/node.ts";
import { registrationChecks } from "../../doctor/registrations.ts";
import { rootChecks } from "../../doctor/root.ts";
import { runnableChecks } from "../../doctor/runnable.ts";
import { sandboxChecks } from "../../doctor/sandbox.ts";
import { settingsFileChecks, switchChecks } from "../../doctor/settings.ts";
import { skillChecks } from "../../doctor/skill.ts";
import { statusLineChecks } from "../../doctor/statusline.ts";
import { trustChecks } from "../../doctor/trust.ts";
import { twiceChecks } from "../../doctor/twice.ts";
import type { Io } from "../../io.ts";
import { palette } from "../../output/color.ts";
import { json } from "../../output/display.ts";
import { hookEnv } from "../../settings/hook-env.ts";
import { installedSites, readLayers } from "../../settings/layers.ts";
import { carryoverPlugins } from "../../settings/plugins.ts";

/** In the order they are printed. */
const CHECK_GROUPS: readonly CheckGroup[] = [
  claudeChecks,
  rootChecks,
  nodeChecks,
  settingsFileChecks,
  executableChecks,
  registrationChecks,
  runnableChecks,
  twiceChecks,
  skillChecks,
  switchChecks,
  statusLineChecks,
  trustChecks,
  memoryChecks,
  sandboxChecks,
  configChecks,
];

function run(args: ParsedArgs, io: Io): number {
  const context = createContext(io, args, { releaseOptional: true });
  const layers = readLayers(context);
  const hooks = hookEnv(context.env, context.projectDir, io.managedSettingsDir, layers);
  const hookNames = knownNames(context);
  const facts: DoctorFacts = {
    context,
    hookContext: { ...context, env: hooks.env },
    hookEnv: hooks,
    layers,
    sites: installedSites(layers, context.owner),
    hookNames,
    plugins: carryoverPlugins(context.env, layers, hookNames, context.projectDir),
  };
  const checks = CHECK_GROUPS.flatMap((group) => group(facts));
  const broken = checks.filter((check) => check.status === "fail").length;
  if (args.flags.json) {
    io.out(json({ ok: broken === 0, checks }));
    return broken === 0 ? 0 : 1;
  }
  const colors = palette(io);
  const mark = { ok: colors.green("✔"), warn: colors.yellow("!"), fail: colors.red("✖") };
  for (const check of checks) {
    io.out(`${mark[check.status]} ${check.title}\n`);
    if (check.fix) io.out(colors.dim(`    fix: ${check.fix}\n`));
  }
  const warnings = checks.filter((check) => check.status === "warn").length;
  io.out(
    broken === 0
      ? colors.green(`no problems${warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""}\n`)
      : colors.red(`${broken} problem${broken === 1 ? "" : "s"} found\n`),
  );
  return broken === 0 ? 0 : 1;
}

export const doctorCommand: Command = {
  name: "doctor",
  summary: "check node, executables, settings entries, switches, status line, trust, auto-memory",
  usage: "carryover doctor [--json] [--project DIR] [--from DIR]",
  help:
    "Checks what makes carryover's hooks run or not, and says how to fix each problem. " +
    "Exits 1 when something is broken (warnings do not count).",
  run,
};
