import { tildify } from "../output/display.ts";
import type { InstalledSite } from "../settings/layers.ts";
import { type Check, type DoctorFacts, fail, ok } from "./checks.ts";

const SAME_MATCHER = (matcher: string | undefined) => (matcher === undefined || matcher === "*" ? "" : matcher);

/**
 * A hook that runs twice: carryover's executable registered in settings and the same hook installed as a
 * plugin, or registered in two settings files in forms that differ. Claude Code 2.1.332 runs identical
 * registrations (command and arguments) once, whatever file they are in, and different ones each.
 */
export function twiceChecks({ context, sites, plugins }: DoctorFacts): Check[] {
  const checks: Check[] = [];
  for (const plugin of plugins) {
    const here = sites.filter((site) => site.executable === `carryover-${plugin.name}`);
    if (here.length === 0) continue;
    const where = [...new Set(here.map((site) => tildify(site.settingsPath, context.env)))].join(", ");
    checks.push(
      fail(
        `${plugin.name} runs twice: registered in ${where} and installed as the plugin ${plugin.key} (${plugin.scope})`,
        `claude plugin uninstall ${plugin.key}, or carryover uninstall ${plugin.name}`,
      ),
    );
  }
  const groups = new Map<string, InstalledSite[]>();
  for (const site of sites) {
    const key = `${site.executable}\0${site.event}\0${SAME_MATCHER(site.matcher)}`;
    groups.set(key, [...(groups.get(key) ?? []), site]);
  }
  for (const group of groups.values()) {
    const runs = new Set(group.map((site) => site.run));
    if (runs.size < 2 || group[0]!.event === "statusLine") continue;
    const [{ executable, event }] = group as [InstalledSite];
    const where = [...new Set(group.map((site) => tildify(site.settingsPath, context.env)))];
    const hook = executable.replace(/^carryover-/, "");
    checks.push(
      fail(
        `${executable} runs ${runs.size} times on ${event}: registered differently in ${where.join(", ")}`,
        `carryover install ${hook} --scope <each of them> writes the same entry everywhere`,
      ),
    );
  }
  if (checks.length === 0 && sites.length > 0)
    checks.push(ok("every hook runs once (no plugin or entry registers one twice)"));
  return checks;
}
