import { configEnvName, isHookEnabled, loadConfig } from "@carryover/core";
import { CONFIG_TABLES } from "../config-tables.ts";
import { hookOfExecutable } from "../context.ts";
import { closest } from "../output/closest.ts";
import { tildify } from "../output/display.ts";
import { type Check, type DoctorFacts, ok, warn } from "./checks.ts";

/** What carryover reads from the environment besides config keys: the switches, and what its hooks hand on. */
const SWITCHES = [
  "CARRYOVER",
  "CARRYOVER_DISABLE",
  "CARRYOVER_DEBUG",
  // Set by an executable's sh prelude and by the status line for the command it chains.
  "CARRYOVER_USER_NODE_OPTIONS",
  "CARRYOVER_USER_NODE_EXTRA_CA_CERTS",
  "CARRYOVER_USER_NODE_COMPILE_CACHE",
  "CARRYOVER_NODE_COMPILE_CACHE",
  "CARRYOVER_STATUSLINE_CHAINED",
];

/**
 * carryover's settings as the hooks get them (this shell's environment, settings.json `env`, the config files): a
 * value carryover ignores (the default stands instead), a `CARRYOVER_*` name nothing reads and a switch that turns
 * installed hooks off are reported, never silently dropped.
 */
export function configChecks({ context, hookEnv: hooks, hookNames, sites }: DoctorFacts): Check[] {
  const installedHooks = [
    ...new Set(sites.map((site) => hookOfExecutable(context, site.executable) ?? site.executable)),
  ];
  const checks: Check[] = [];
  // ` in ~/.claude/settings.json env`, or nothing for this shell's: where the user finds a variable to change it.
  const setIn = (name: string) => {
    const file = hooks.setIn[name];
    return file ? ` in ${tildify(file, context.env)} env` : "";
  };
  const unset = (name: string) => {
    const file = hooks.setIn[name];
    return file ? `remove ${name} from "env" in ${tildify(file, context.env)}` : `unset ${name}`;
  };
  const known = [
    ...SWITCHES,
    ...Object.entries(CONFIG_TABLES).flatMap(([section, keys]) =>
      Object.keys(keys).map((key) => configEnvName(section, key)),
    ),
  ];
  for (const name of Object.keys(hooks.env).filter((one) => one === "CARRYOVER" || one.startsWith("CARRYOVER_"))) {
    if (known.includes(name)) continue;
    const near = closest(name, known);
    checks.push(
      warn(
        `${name} is set${setIn(name)} but is not a carryover setting: nothing reads it`,
        near ? `did you mean ${near}?` : "carryover config <hook> <key> --json names each key's variable",
      ),
    );
  }
  const disabled = (hooks.env.CARRYOVER_DISABLE ?? "").split(",").map((name) => name.trim().replace(/^hook-/, ""));
  for (const name of disabled.filter((one) => one !== "" && one !== "all" && !hookNames.includes(one))) {
    checks.push(
      warn(`CARRYOVER_DISABLE names ${JSON.stringify(name)}, which is no hook`, `hooks: ${hookNames.join(", ")}`),
    );
  }
  const off = installedHooks.filter((name) => !isHookEnabled(hooks.env, name));
  if (off.length > 0) {
    const everyHookOff = !isHookEnabled({ CARRYOVER: hooks.env.CARRYOVER }, "any");
    const by = everyHookOff ? "CARRYOVER" : "CARRYOVER_DISABLE";
    checks.push(
      warn(
        `${off.join(", ")} installed but switched off: ${by}=${hooks.env[by]} is set${setIn(by)}, ` +
          `so ${off.length === 1 ? "it does" : "they do"} nothing`,
        `${unset(by)} to turn ${off.length === 1 ? "it" : "them"} on`,
      ),
    );
  }
  const problems = new Set(
    Object.entries(CONFIG_TABLES).flatMap(
      ([section, keys]) => loadConfig(section, keys, hooks.env, context.projectDir).problems,
    ),
  );
  for (const problem of problems) {
    // An env var's problem starts with its name: say which settings file set it.
    const name = /^(CARRYOVER_\w+): /.exec(problem)?.[1];
    const shown = name && setIn(name) ? `${name} (${setIn(name).trim()})${problem.slice(name.length)}` : problem;
    checks.push(
      warn(`ignored, the default stands: ${shown}`, "carryover config <hook> <key> <value> sets a valid one"),
    );
  }
  if (checks.length === 0) checks.push(ok("every carryover setting in the environment and the config files is valid"));
  return checks;
}
