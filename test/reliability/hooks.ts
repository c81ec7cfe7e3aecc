import { join } from "node:path";
import { carryoverPackages, readPackage } from "../../apps/cli/scripts/assemble-release.mjs";

export const ROOT = join(import.meta.dirname, "..", "..");

interface Registration {
  event: string;
  matcher?: string;
  if?: string;
  timeout?: number;
}

/** A hook package as its package.json `carryover` field declares it. */
export interface HookPackage {
  name: string;
  dir: string;
  /** src/bin.ts: what the shipped executable runs. */
  binSource: string;
  /** The built executable (its package.json `bin`). */
  executable: string;
  /** The events the fuzzer feeds it: each registration's, and `StatusLine` for the status line. */
  events: string[];
  registrations: Registration[];
}

/**
 * Every package under packages/ whose package.json has a `carryover.hook` field, so a hook added later
 * is fuzzed, raced and attacked without editing this suite.
 */
export function discoverHooks(): HookPackage[] {
  const hooks: HookPackage[] = [];
  for (const dir of carryoverPackages(ROOT)) {
    const manifestPath = join(dir, "package.json");
    const manifest = readPackage(dir) as {
      bin?: Record<string, string>;
      carryover?: { hook?: string; statusLine?: boolean; registrations?: Registration[] };
    };
    const declared = manifest.carryover;
    if (!declared?.hook) continue;
    const bins = Object.values(manifest.bin ?? {});
    if (bins.length !== 1)
      throw new Error(`${manifestPath}: a hook package ships exactly one bin, found ${bins.length}`);
    const registrations = declared.registrations ?? [];
    const events = [
      ...new Set([
        ...registrations.map((registration) => registration.event),
        ...(declared.statusLine ? ["StatusLine"] : []),
      ]),
    ];
    if (events.length === 0) throw new Error(`${manifestPath}: carryover field declares no event and no statusLine`);
    hooks.push({
      name: declared.hook,
      dir,
      binSource: join(dir, "src", "bin.ts"),
      executable: join(dir, bins[0]!),
      events,
      registrations,
    });
  }
  return hooks;
}

/** The compact-prep skill's state CLI, built (`carryover-state`). */
export const STATE_CLI = join(ROOT, "packages", "skill-compact-prep", "dist", "carryover-state.cjs");

/** The carryover installer CLI, built, with the release it ships beside it. */
export const CARRYOVER_CLI = join(ROOT, "apps", "cli", "dist", "carryover.cjs");

/** The built executable of the hook named `name` (its package.json `carryover.hook`). */
export function hookExecutable(name: string): string {
  const hook = discoverHooks().find((candidate) => candidate.name === name);
  if (!hook) throw new Error(`no hook package ${name}`);
  return hook.executable;
}
