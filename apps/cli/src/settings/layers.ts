import { errorMessage } from "@carryover/core";
import type { Context } from "../context.ts";
import { type JsonDoc, readJsonDoc } from "../json/doc.ts";
import { listHandlers, type Owner, ownedExecutable } from "./handlers.ts";
import { layeredScopes, type Scope, type ScopePaths } from "./scope.ts";
import { ownedStatusLine } from "./statusline-slot.ts";

/** One settings file of the three Claude Code layers, read; `error` when it could not be. */
export interface Layer {
  paths: ScopePaths;
  doc: JsonDoc | null;
  error: string | null;
}

/** A carryover executable a settings file runs. */
export interface InstalledSite {
  scope: Scope;
  settingsPath: string;
  executable: string;
  /** Hook event, or `statusLine`. */
  event: string;
  matcher: string | undefined;
  /** The command and arguments as registered: Claude Code runs one of identical registrations only. */
  run: string;
}

/** user, project, local — lowest precedence first. Unreadable or malformed files become `error`, for reports. */
export function readLayers(context: Pick<Context, "env" | "projectDir">): Layer[] {
  return layeredScopes(context.env, context.projectDir).map((paths) => {
    try {
      return { paths, doc: readJsonDoc(paths.settingsPath), error: null };
    } catch (error) {
      return { paths, doc: null, error: errorMessage(error) };
    }
  });
}

export function installedSites(layers: readonly Layer[], owner: Owner): InstalledSite[] {
  const sites: InstalledSite[] = [];
  for (const layer of layers) {
    if (!layer.doc) continue;
    const base = { scope: layer.paths.scope, settingsPath: layer.paths.settingsPath };
    for (const site of listHandlers(layer.doc.value)) {
      const executable = ownedExecutable(site.handler, owner);
      const run = JSON.stringify([site.handler.command, site.handler.args ?? []]);
      if (executable) sites.push({ ...base, executable, event: site.event, matcher: site.matcher, run });
    }
    const statusLine = ownedStatusLine(layer.doc.value.statusLine, owner);
    if (statusLine) {
      const run = JSON.stringify((layer.doc.value.statusLine as { command?: unknown }).command);
      sites.push({ ...base, executable: statusLine, event: "statusLine", matcher: undefined, run });
    }
  }
  return sites;
}
