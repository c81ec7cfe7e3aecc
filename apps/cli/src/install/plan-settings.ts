import { join } from "node:path";
import { type Context, mainExecutable } from "../context.ts";
import { clone, readJsonDoc, serializeJson } from "../json/doc.ts";
import { deepEqual } from "../json/equal.ts";
import { type ManifestEntry, STATUS_LINE_EVENT } from "../release/manifest.ts";
import { listHandlers, type Owner, ownedExecutable, removeHandlers, syncRegistrations } from "../settings/handlers.ts";
import type { Layer } from "../settings/layers.ts";
import type { ScopePaths } from "../settings/scope.ts";
import {
  foreignStatusLine,
  ourStatusLine,
  ownedStatusLine,
  ownedStatusLineRun,
  type StatusLineMode,
  shellCommandFor,
} from "../settings/statusline-slot.ts";
import { changeAfterRemoval, textChange, trackFile } from "./_file-tracking.ts";
import { planChainCommand } from "./_plan-chain.ts";
import type { Change } from "./changes.ts";

type Json = Record<string, unknown>;

function holdsOurs(value: Json, owner: Owner): boolean {
  return (
    listHandlers(value).some((site) => ownedExecutable(site.handler, owner) !== null) ||
    ownedStatusLine(value.statusLine, owner) !== null
  );
}

/** The status line a lower-precedence layer shows, which one set in this scope would hide: chained instead. */
function lowerStatusLine(layers: readonly Layer[], scope: ScopePaths, owner: Owner): Json | null {
  const below = layers
    .slice(
      0,
      layers.findIndex((layer) => layer.paths.scope === scope.scope),
    )
    .reverse();
  for (const layer of below) {
    const found = foreignStatusLine(layer.doc?.value.statusLine, owner);
    if (found) return found;
  }
  return null;
}

/**
 * Registers the entries in the scope's settings file and takes the statusLine slot for a statusline
 * entry: an existing status line is chained (or, with `replace`, displaced) and remembered for uninstall.
 */
export function planSettingsInstall(
  context: Context,
  entries: readonly ManifestEntry[],
  scope: ScopePaths,
  layers: readonly Layer[],
  mode: StatusLineMode,
  notes: string[],
): Change[] {
  const registering = entries.filter((entry) => mainExecutable(entry) !== undefined && entry.registrations.length > 0);
  if (registering.length === 0) return [];
  const doc = readJsonDoc(scope.settingsPath);
  const value = clone(doc.value);
  const file = trackFile(context.installed.record, doc, holdsOurs(doc.value, context.owner));
  const changes: Change[] = [];
  for (const entry of registering) {
    const command = join(context.binDir, mainExecutable(entry)!);
    syncRegistrations(value, command, entry.registrations, scope.settingsPath, context.owner);
    if (entry.registrations.some((registration) => registration.event === STATUS_LINE_EVENT)) {
      changes.push(...takeStatusLine(context, value, file, command, scope, layers, mode, notes));
    }
    if (!file.hooks.includes(entry.name)) file.hooks.push(entry.name);
  }
  const change = textChange(doc, deepEqual(value, doc.value) ? doc.text : serializeJson(doc, value));
  // Settings last: they must never point at an executable that is not there yet.
  return [...changes, ...(change ? [change] : [])];
}

function takeStatusLine(
  context: Context,
  value: Json,
  file: { statusLine?: Json | undefined },
  executablePath: string,
  scope: ScopePaths,
  layers: readonly Layer[],
  mode: StatusLineMode,
  notes: string[],
): Change[] {
  const above = layers
    .slice(layers.findIndex((layer) => layer.paths.scope === scope.scope) + 1)
    .filter((layer) => foreignStatusLine(layer.doc?.value.statusLine, context.owner));
  for (const layer of above) {
    notes.push(
      `the status line set in ${layer.paths.settingsPath} takes precedence here; ` +
        `\`carryover install statusline --scope ${layer.paths.scope}\` chains it there`,
    );
  }
  const current = value.statusLine;
  const ours = ownedStatusLineRun(current, context.owner);
  if (ours) {
    // Any form of ours (an earlier version's `node <path>` too) becomes the current one.
    value.statusLine = { ...(current as Json), command: shellCommandFor(executablePath) };
    return mode === "replace" ? planChainCommand(context, scope.configPath, null) : [];
  }
  const displaced = foreignStatusLine(current, context.owner);
  if (current !== undefined) file.statusLine = clone(current as Json);
  value.statusLine = ourStatusLine(displaced, shellCommandFor(executablePath));
  const chained = displaced ?? lowerStatusLine(layers, scope, context.owner);
  if (!chained) return [];
  if (mode === "replace") {
    notes.push(`replaced the status line \`${chained.command}\`; uninstall puts it back`);
    return planChainCommand(context, scope.configPath, null);
  }
  notes.push(
    `chained your status line \`${chained.command}\`: ` +
      "carryover's line shows beside its output (config statusline.chainCommand)",
  );
  return planChainCommand(context, scope.configPath, String(chained.command));
}

/**
 * Takes the named hooks' entries out of the scope's settings file and puts a displaced status line back.
 * When nothing else changed since install, the file gets its pre-install bytes back exactly.
 */
export function planSettingsRemoval(
  context: Context,
  executables: ReadonlySet<string>,
  hooks: ReadonlySet<string>,
  scope: ScopePaths,
): Change[] {
  const doc = readJsonDoc(scope.settingsPath);
  const value = clone(doc.value);
  const record = context.installed.record;
  const file = record.files[scope.settingsPath];
  const removed = removeHandlers(
    value,
    (site) => executables.has(ownedExecutable(site.handler, context.owner) ?? ""),
    scope.settingsPath,
  );
  const changes: Change[] = [];
  const statusLine = ownedStatusLine(value.statusLine, context.owner);
  const statusLineGoes = statusLine !== null && executables.has(statusLine);
  if (statusLineGoes) {
    if (file?.statusLine !== undefined) value.statusLine = file.statusLine;
    else delete value.statusLine;
    changes.push(...planChainCommand(context, scope.configPath, null));
  }
  if (file) {
    file.hooks = file.hooks.filter((hook) => !hooks.has(hook));
    if (statusLineGoes) delete file.statusLine;
  }
  const stillOurs = holdsOurs(value, context.owner);
  if (removed === 0 && !statusLineGoes) {
    if (file && !stillOurs && file.hooks.length === 0) delete record.files[scope.settingsPath];
    return changes;
  }
  const change = changeAfterRemoval(doc, value, file, stillOurs);
  if (file && !stillOurs) delete record.files[scope.settingsPath];
  // Settings first: once they no longer run an executable, it can go.
  return [...(change ? [change] : []), ...changes];
}
