import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { homeDir } from "@carryover/core";
import { type Check, type DoctorFacts, ok, warn } from "./checks.ts";

/** Project and local hooks run only in a trusted folder (`~/.claude.json` projects[dir].hasTrustDialogAccepted). */
export function trustChecks({ context, sites }: DoctorFacts): Check[] {
  const scopes = [...new Set(sites.filter((site) => site.scope !== "user").map((site) => site.scope))];
  if (scopes.length === 0) return [];
  const path = context.env.CLAUDE_CONFIG_DIR
    ? join(resolve(context.env.CLAUDE_CONFIG_DIR), ".claude.json")
    : join(homeDir(context.env), ".claude.json");
  let projects: Record<string, { hasTrustDialogAccepted?: boolean }> = {};
  try {
    projects = (JSON.parse(readFileSync(path, "utf8")) as { projects?: typeof projects }).projects ?? {};
  } catch {
    // unreadable: nothing trusted
  }
  for (let dir = context.projectDir; ; dir = dirname(dir)) {
    if (projects[dir]?.hasTrustDialogAccepted === true) return [ok(`${dir} is trusted: project hooks run`)];
    if (dirname(dir) === dir) break;
  }
  const named = scopes.join(" and ");
  return [
    warn(
      `carryover is installed in ${named} scope but ${context.projectDir} is not a trusted folder yet: ` +
        `Claude Code skips its ${named} hooks`,
      `start \`claude\` in ${context.projectDir} and accept the trust dialog`,
    ),
  ];
}
