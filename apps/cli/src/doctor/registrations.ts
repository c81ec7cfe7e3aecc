import { tildify } from "../output/display.ts";
import { STATUS_LINE_EVENT } from "../release/manifest.ts";
import { type Check, type DoctorFacts, fail, ok } from "./checks.ts";

/** Hooks the record says were put in a settings file of this project must still be registered there. */
export function registrationChecks({ context, layers, sites }: DoctorFacts): Check[] {
  const checks: Check[] = [];
  for (const layer of layers) {
    const file = context.installed.record.files[layer.paths.settingsPath];
    if (!file || !layer.doc) continue;
    for (const hook of file.hooks) {
      const entry = context.release.entries.find((candidate) => candidate.name === hook);
      const executables = new Set(
        Object.entries(context.installed.record.executables)
          .filter(([, executable]) => executable.hook === hook)
          .map(([name]) => name),
      );
      const here = sites.filter(
        (site) => site.settingsPath === layer.paths.settingsPath && executables.has(site.executable),
      );
      const missing = (entry?.registrations ?? []).filter(
        (registration) =>
          !here.some(
            (site) =>
              site.event === registration.event &&
              (registration.event === STATUS_LINE_EVENT || (site.matcher ?? "") === (registration.matcher ?? "")),
          ),
      );
      const where = tildify(layer.paths.settingsPath, context.env);
      if (here.length === 0 || missing.length > 0) {
        const what = missing.length > 0 ? missing.map((registration) => registration.event).join(", ") : "its entries";
        checks.push(
          fail(`${hook}: ${what} missing from ${where}`, `carryover install ${hook} --scope ${layer.paths.scope}`),
        );
      } else checks.push(ok(`${hook} registered in ${where}`));
    }
  }
  return checks;
}
