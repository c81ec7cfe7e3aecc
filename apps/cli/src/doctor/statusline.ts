import { tildify } from "../output/display.ts";
import { STATUS_LINE_EVENT } from "../release/manifest.ts";
import { readManagedSettings } from "../settings/managed.ts";
import { foreignStatusLine, isStatusLineObject } from "../settings/statusline-slot.ts";
import { type Check, type DoctorFacts, fail, ok } from "./checks.ts";

/** Who shows the status line: the highest layer that sets one wins (managed, local, project, user). */
export function statusLineChecks({ context, layers, sites }: DoctorFacts): Check[] {
  const managed = readManagedSettings(context.io.managedSettingsDir).filter((file) =>
    isStatusLineObject(file.value?.statusLine),
  );
  const owners = [
    ...layers
      .filter((layer) => isStatusLineObject(layer.doc?.value.statusLine))
      .map((layer) => ({
        where: tildify(layer.paths.settingsPath, context.env),
        scope: layer.paths.scope as string,
        value: layer.doc!.value.statusLine,
      })),
    ...managed.map((file) => ({ where: file.path, scope: "managed", value: file.value!.statusLine })),
  ];
  const owner = owners.at(-1);
  const ours = sites.filter((site) => site.event === STATUS_LINE_EVENT);
  if (!owner) return ours.length > 0 ? [] : [ok("status line slot: empty")];
  const foreign = foreignStatusLine(owner.value, context.owner);
  if (!foreign) return [ok(`status line slot: carryover's statusline (${owner.where})`)];
  const title = `status line slot: \`${String(foreign.command)}\` from ${owner.where}`;
  if (ours.length === 0) return [ok(title)];
  const fix =
    owner.scope === "managed"
      ? "managed settings own the status line; carryover's cannot show"
      : `carryover install statusline --scope ${owner.scope} (chains that status line)`;
  return [fail(`${title} hides carryover's statusline installed in ${ours.map((site) => site.scope).join(", ")}`, fix)];
}
