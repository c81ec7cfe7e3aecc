import { existsSync } from "node:fs";
import { join } from "node:path";
import { carryoverPackages, readPackage } from "../apps/cli/scripts/assemble-release.mjs";

/**
 * @typedef {{ event: string, matcher?: string, if?: string, timeout?: number }} Registration
 * @typedef {{
 *   hook: string,
 *   packageName: string,
 *   packageDir: string,
 *   binPath: string,
 *   built: boolean,
 *   statusLine: boolean,
 *   shellCommand?: string,
 *   registrations: Registration[],
 * }} HookPackage
 */

/** Every package whose package.json has a `carryover.hook` field, as the CLI and the release read it. */
export function discoverHooks(root) {
  /** @type {HookPackage[]} */
  const hooks = [];
  for (const packageDir of carryoverPackages(root)) {
    const manifest = readPackage(packageDir);
    const meta = manifest.carryover;
    if (!meta?.hook) continue;
    const bin = Object.values(manifest.bin ?? {})[0];
    if (typeof bin !== "string") continue;
    const binPath = join(packageDir, bin);
    hooks.push({
      hook: meta.hook,
      packageName: manifest.name,
      packageDir,
      binPath,
      built: existsSync(binPath),
      statusLine: meta.statusLine === true,
      registrations: meta.registrations ?? [],
    });
  }
  return hooks;
}

export function runsOn(hook, event) {
  return hook.registrations.some((registration) => registration.event === event);
}
