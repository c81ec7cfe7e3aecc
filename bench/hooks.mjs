import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

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
  const packagesDir = join(root, "packages");
  /** @type {HookPackage[]} */
  const hooks = [];
  for (const entry of readdirSync(packagesDir).sort()) {
    const manifestPath = join(packagesDir, entry, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    const meta = manifest.carryover;
    if (!meta?.hook) continue;
    const bin = Object.values(manifest.bin ?? {})[0];
    if (typeof bin !== "string") continue;
    const binPath = join(packagesDir, entry, bin);
    hooks.push({
      hook: meta.hook,
      packageName: manifest.name,
      packageDir: join(packagesDir, entry),
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
