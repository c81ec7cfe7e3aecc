import { tildify } from "../output/display.ts";
import { readManagedSettings } from "../settings/managed.ts";
import { type Check, type DoctorFacts, fail, ok, warn } from "./checks.ts";

/** A settings file Claude Code cannot read either. */
export function settingsFileChecks({ layers }: DoctorFacts): Check[] {
  return layers.flatMap((layer) =>
    layer.error ? [fail(layer.error, "Claude Code cannot read that file either")] : [],
  );
}

/** `disableAllHooks` anywhere, `allowManagedHooksOnly` in managed settings: carryover's hooks would never run. */
export function switchChecks({ context, layers, sites }: DoctorFacts): Check[] {
  const checks: Check[] = [];
  const managed = readManagedSettings(context.io.managedSettingsDir);
  for (const file of managed)
    if (file.error) checks.push(warn(file.error, "ask whoever manages this machine's Claude Code settings"));
  for (const layer of layers) {
    if (layer.doc?.value.disableAllHooks === true) {
      checks.push(
        fail(
          `disableAllHooks is true in ${tildify(layer.paths.settingsPath, context.env)}: no hook runs`,
          `remove "disableAllHooks" from ${tildify(layer.paths.settingsPath, context.env)}`,
        ),
      );
    }
  }
  for (const file of managed) {
    if (file.value?.disableAllHooks === true)
      checks.push(
        fail(
          `disableAllHooks is true in managed settings ${file.path}: no hook runs`,
          "ask whoever manages this machine's Claude Code settings",
        ),
      );
    if (file.value?.allowManagedHooksOnly === true && sites.length > 0) {
      checks.push(
        fail(
          `allowManagedHooksOnly is true in ${file.path}: hooks from settings.json do not run`,
          "ask your administrator to add carryover's hooks to managed settings, or to enable carryover's plugins there",
        ),
      );
    }
  }
  if (checks.length === 0) checks.push(ok("hooks are enabled (no disableAllHooks, no allowManagedHooksOnly)"));
  return checks;
}
