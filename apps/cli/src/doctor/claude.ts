import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { homeDir } from "@carryover/core";
import type { Context } from "../context.ts";
import { tildify } from "../output/display.ts";
import { type Check, type DoctorFacts, ok, warn } from "./checks.ts";

/** The Claude Code whose behaviour carryover's facts were checked against (the root package.json pins it). */
export const OBSERVED_CLAUDE_CODE = "2.1.332";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `claude` on PATH, else where the native and the local installers put it. */
function findClaude(context: Context): string | null {
  const onPath = (context.env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, "claude"));
  const home = homeDir(context.env);
  return [...onPath, join(home, ".local/bin/claude"), join(home, ".claude/local/claude")].find(executable) ?? null;
}

export function claudeChecks({ context }: DoctorFacts): Check[] {
  const found = findClaude(context);
  if (!found) {
    return [
      warn(
        "no `claude` found (PATH, ~/.local/bin, ~/.claude/local): carryover's hooks run inside Claude Code",
        "install Claude Code: npm install -g @anthropic-ai/claude-code",
      ),
    ];
  }
  const result = spawnSync(found, ["--version"], { env: context.env, encoding: "utf8", timeout: 15_000 });
  const version = /^(\d+\.\d+\.\d+)/.exec(result.stdout?.trim() ?? "")?.[1];
  const where = tildify(found, context.env);
  if (!version) return [warn(`${where} --version printed no version`, "reinstall Claude Code")];
  if (version === OBSERVED_CLAUDE_CODE)
    return [ok(`Claude Code ${version} (${where}), the version carryover was checked on`)];
  return [
    warn(
      `Claude Code ${version} (${where}); carryover was checked on ${OBSERVED_CLAUDE_CODE}: hooks, settings and ` +
        "compaction may behave otherwise",
      "if a hook misbehaves, its line in ~/.claude/carryover/log/carryover.log and this version belong in the report",
    ),
  ];
}
