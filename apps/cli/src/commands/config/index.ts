import { join, resolve } from "node:path";
import {
  type ConfigTable,
  checkConfigValue,
  configEnvName,
  configKeyLabel,
  expects,
  fromText,
  loadConfig,
  projectConfigPath,
  userConfigPath,
} from "@carryover/core";
import { choice, type ParsedArgs, stringFlag } from "../../args.ts";
import type { Command } from "../../command.ts";
import { CONFIG_TABLES } from "../../config-tables.ts";
import { usageError } from "../../errors.ts";
import { applyChanges, retryOnConcurrentEdit } from "../../install/apply.ts";
import type { Io } from "../../io.ts";
import { clone, type JsonDoc, parseObject, readJsonDoc, readText, serializeJson } from "../../json/doc.ts";
import { unknownNameMessage } from "../../output/closest.ts";
import { palette } from "../../output/color.ts";
import { json, tildify } from "../../output/display.ts";
import { normalizeName } from "../../release/selection.ts";
import { type HookEnv, hookEnv } from "../../settings/hook-env.ts";

type Json = Record<string, unknown>;
const SHARED = "shared";

type ConfigSection = string;

function keysOf(section: ConfigSection): ConfigTable {
  return CONFIG_TABLES[section] ?? {};
}

const sections = () => Object.keys(CONFIG_TABLES);
const sectionName = (section: ConfigSection) => (section === "" ? SHARED : section);

interface Target {
  section: ConfigSection;
  key: string | undefined;
  value: string | undefined;
}

/** `statusline color never`, `statusline.color never`, `levels 50,80`, `shared levels 50,80`, `hook-pin`… */
function parseTarget(positionals: readonly string[]): Target | null {
  const [first, second, third, ...extra] = positionals;
  if (first === undefined) return null;
  const named = (word: string): ConfigSection | undefined => {
    const normal = normalizeName(word);
    return normal === SHARED ? "" : sections().find((section) => section !== "" && section === normal);
  };
  let target: Target;
  const dot = first.indexOf(".");
  if (named(first) !== undefined) target = { section: named(first)!, key: second, value: third };
  else if (dot > 0 && named(first.slice(0, dot)) !== undefined) {
    target = { section: named(first.slice(0, dot))!, key: first.slice(dot + 1), value: second };
    if (third !== undefined) extra.unshift(third);
  } else if (first in keysOf("")) {
    target = { section: "", key: first, value: second };
    if (third !== undefined) extra.unshift(third);
  } else {
    throw usageError(
      unknownNameMessage("hook or key", first, [...sections().map(sectionName), ...Object.keys(keysOf(""))]),
    );
  }
  if (extra.length > 0)
    throw usageError(`one value only; quote it if it has spaces: carryover config ${first} ${second ?? ""} "…"`);
  if (target.key !== undefined && !(target.key in keysOf(target.section))) {
    throw usageError(
      unknownNameMessage(`key of ${sectionName(target.section)}`, target.key, Object.keys(keysOf(target.section))),
    );
  }
  return target;
}

interface KeyReport {
  key: string;
  value: unknown;
  default: unknown;
  source: string;
  env: string;
  describe: string;
  expects: string;
}

function sectionOf(values: Json | undefined, section: ConfigSection): Json {
  if (!values) return {};
  if (section === "") return values;
  const found = values[section];
  return found !== null && typeof found === "object" && !Array.isArray(found) ? (found as Json) : {};
}

/** An env var as the user finds it: `CARRYOVER_LEVELS`, or `CARRYOVER_LEVELS in ~/.claude/settings.json env`. */
function envSource(name: string, hooks: HookEnv, io: Io): string {
  const file = hooks.setIn[name];
  return file ? `${name} in ${tildify(file, io.env)} env` : name;
}

function report(
  io: Io,
  projectDir: string,
  section: ConfigSection,
  hooks: HookEnv,
): { keys: KeyReport[]; problems: string[] } {
  const loaded = loadConfig(section, keysOf(section), hooks.env, projectDir);
  const values = (section === "" ? loaded.shared : loaded.hook) as Json;
  const files = [projectConfigPath(projectDir), userConfigPath(io.env)].map((path) => ({
    path,
    values: parseObject(readText(path), path),
  }));
  const keys = Object.entries(keysOf(section)).map(([key, spec]) => {
    const env = configEnvName(section, key);
    const envText = hooks.env[env];
    let source = "default";
    if (envText !== undefined && checkConfigValue(keysOf(section), section, key, fromText(spec, envText)) === null)
      source = envSource(env, hooks, io);
    else {
      const file = files.find(
        (candidate) =>
          key in sectionOf(candidate.values, section) &&
          checkConfigValue(keysOf(section), section, key, sectionOf(candidate.values, section)[key]) === null,
      );
      if (file) source = tildify(file.path, io.env);
    }
    return {
      key,
      value: values[key],
      default: spec.default,
      source,
      env,
      describe: spec.description,
      expects: expects(spec),
    };
  });
  const problems = loaded.problems.map((problem) => {
    const name = /^(CARRYOVER_\w+): /.exec(problem)?.[1];
    return name ? `${envSource(name, hooks, io)}${problem.slice(name.length)}` : problem;
  });
  return { keys, problems };
}

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function run(args: ParsedArgs, io: Io): number {
  const colors = palette(io);
  const projectDir = resolve(io.cwd, stringFlag(args.flags.project) ?? ".");
  const target = parseTarget(args.positionals);
  if (target?.key !== undefined && (target.value !== undefined || args.flags.unset))
    return write(args, io, projectDir, target);
  if (args.flags.unset) throw usageError("--unset needs a hook and a key");

  const chosen = target ? [target.section] : sections();
  const hooks = hookEnv(io.env, projectDir, io.managedSettingsDir);
  const reports = chosen.map((section) => ({ section, ...report(io, projectDir, section, hooks) }));
  if (target?.key !== undefined) {
    const found = reports[0]!.keys.find((item) => item.key === target.key)!;
    io.out(args.flags.json ? json({ section: sectionName(target.section), ...found }) : `${show(found.value)}\n`);
    // The value printed is the default standing in for an ignored one: say so.
    const label = `${configKeyLabel(target.section, target.key)}: `;
    for (const problem of reports[0]!.problems.filter((one) => one.includes(label)))
      io.err(`${colors.yellow("warning:")} ignored, the default stands: ${problem}\n`);
    return 0;
  }
  const problems = [...new Set(reports.flatMap((item) => item.problems))];
  if (args.flags.json) {
    io.out(
      json({
        sections: Object.fromEntries(
          reports.map((item) => [
            sectionName(item.section),
            Object.fromEntries(item.keys.map(({ key, ...rest }) => [key, rest])),
          ]),
        ),
        problems,
      }),
    );
    return 0;
  }
  for (const item of reports) {
    io.out(`${colors.bold(sectionName(item.section))}\n`);
    for (const key of item.keys) {
      const source = key.source === "default" ? colors.dim("(default)") : colors.cyan(`(${key.source})`);
      io.out(`  ${key.key} = ${show(key.value)} ${source}\n${colors.dim(`      ${key.describe}; ${key.expects}`)}\n`);
    }
  }
  for (const problem of problems) io.err(`${colors.yellow("warning:")} ${problem}\n`);
  return 0;
}

function write(args: ParsedArgs, io: Io, projectDir: string, target: Target): number {
  const scope = choice(args.flags.scope, ["user", "project"] as const, "--scope", "user");
  const path = scope === "user" ? userConfigPath(io.env) : projectConfigPath(projectDir);
  const doc: JsonDoc = readJsonDoc(path);
  const value = clone(doc.value);
  const key = target.key!;
  const label = configKeyLabel(target.section, key);
  const holder: Json = target.section === "" ? value : { ...sectionOf(value, target.section) };
  if (args.flags.unset) {
    if (target.value !== undefined) throw usageError("--unset takes no value");
    delete holder[key];
  } else {
    const parsed = fromText(keysOf(target.section)[key]!, target.value!);
    const problem = checkConfigValue(keysOf(target.section), target.section, key, parsed, target.value);
    if (problem) throw usageError(`${problem}; nothing was written`);
    holder[key] = parsed;
  }
  if (target.section !== "") {
    if (Object.keys(holder).length > 0) value[target.section] = holder;
    else delete value[target.section];
  }
  const after = serializeJson(doc, value);
  if (after !== doc.text) applyChanges([{ kind: "text", path, before: doc.text, after }], io.env, io.nowMs);
  const colors = palette(io);
  io.out(
    args.flags.unset
      ? `${label} unset in ${tildify(path, io.env)}\n`
      : `${label} = ${show(holder[key])} in ${tildify(path, io.env)}\n`,
  );
  const env = configEnvName(target.section, key);
  const hooks = hookEnv(io.env, projectDir, io.managedSettingsDir);
  if (hooks.env[env] !== undefined) {
    const where = hooks.setIn[env] ? `in ${tildify(hooks.setIn[env], io.env)} env` : "in this environment";
    io.out(colors.yellow(`note: ${env} is set ${where} and overrides the file\n`));
  }
  if (
    scope === "user" &&
    key in
      sectionOf(parseObject(readText(projectConfigPath(projectDir)), projectConfigPath(projectDir)), target.section)
  ) {
    const projectConfig = tildify(join(projectDir, ".claude/carryover/config.json"), io.env);
    io.out(colors.yellow(`note: ${projectConfig} sets ${label} for this project and overrides it there\n`));
  }
  return 0;
}

export const configCommand: Command = {
  name: "config",
  summary: "list, get or set hook settings, validated",
  usage: "carryover config [hook] [key] [value | --unset] [--scope user|project] [--project DIR] [--json]",
  help: `Without arguments, lists every key of every hook with its value and where that value comes from
(default, ~/.claude/carryover/config.json, the project's .claude/carryover/config.json, or a CARRYOVER_* env
var, from this shell or from a settings.json "env", which Claude Code hands its hooks). With a hook, lists its
keys; with a key, prints its value; with a value, checks and sets it.
Shared keys are named alone (carryover config levels 50,85) or under "shared".

  --scope user      write ~/.claude/carryover/config.json (default)
  --scope project   write the project's .claude/carryover/config.json
  --unset           remove the key from that file`,
  run: (args, io) => retryOnConcurrentEdit(() => run(args, io)),
};
