import { configEnvName, loadConfig } from "@carryover/core";
import { CONFIG_TABLES } from "../config-tables.ts";
import type { Context } from "../context.ts";
import { closest } from "../output/closest.ts";
import { type Check, ok, warn } from "./checks.ts";

/** What carryover reads from the environment besides config keys: the switches, and what its hooks hand on. */
const SWITCHES = [
  "CARRYOVER",
  "CARRYOVER_DISABLE",
  "CARRYOVER_DEBUG",
  // Set by an executable's sh prelude and by the status line for the command it chains.
  "CARRYOVER_USER_NODE_OPTIONS",
  "CARRYOVER_USER_NODE_EXTRA_CA_CERTS",
  "CARRYOVER_STATUSLINE_CHAINED",
];

/**
 * carryover's settings as the environment and the config files give them: a value carryover ignores (the default
 * stands instead) and a `CARRYOVER_*` name nothing reads are reported, never silently dropped.
 */
export function configChecks(context: Context, hookNames: readonly string[]): Check[] {
  const checks: Check[] = [];
  const known = [
    ...SWITCHES,
    ...Object.entries(CONFIG_TABLES).flatMap(([section, keys]) =>
      Object.keys(keys).map((key) => configEnvName(section, key)),
    ),
  ];
  for (const name of Object.keys(context.env).filter((one) => one === "CARRYOVER" || one.startsWith("CARRYOVER_"))) {
    if (known.includes(name)) continue;
    const near = closest(name, known);
    checks.push(
      warn(
        `${name} is set but is not a carryover setting: nothing reads it`,
        near ? `did you mean ${near}?` : "carryover config <hook> <key> --json names each key's variable",
      ),
    );
  }
  const disabled = (context.env.CARRYOVER_DISABLE ?? "").split(",").map((name) => name.trim().replace(/^hook-/, ""));
  for (const name of disabled.filter((one) => one !== "" && one !== "all" && !hookNames.includes(one))) {
    checks.push(
      warn(`CARRYOVER_DISABLE names ${JSON.stringify(name)}, which is no hook`, `hooks: ${hookNames.join(", ")}`),
    );
  }
  const problems = new Set(
    Object.entries(CONFIG_TABLES).flatMap(
      ([section, keys]) => loadConfig(section, keys, context.env, context.projectDir).problems,
    ),
  );
  for (const problem of problems) {
    checks.push(
      warn(`ignored, the default stands: ${problem}`, "carryover config <hook> <key> <value> sets a valid one"),
    );
  }
  if (checks.length === 0) checks.push(ok("every carryover setting in the environment and the config files is valid"));
  return checks;
}
