import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { carryoverPackages, readPackage } from "../apps/cli/scripts/assemble-release.mjs";

/** `bundle-size.json`: a ceiling per shipped executable (bin name → bytes), and the target for the rest. */
export interface BundleCeilings {
  targetBytes: number;
  ceilings: Record<string, number>;
}

export interface ShippedExecutable {
  /** The bin name, e.g. `carryover-pin`. */
  name: string;
  packageName: string;
  path: string;
  /** null when the file is missing (not built). */
  bytes: number | null;
}

/** Every executable a package with a `carryover` field ships (hooks and the skill's CLI). */
export function shippedExecutables(root: string): ShippedExecutable[] {
  const found: ShippedExecutable[] = [];
  for (const dir of carryoverPackages(root)) {
    const manifest = readPackage(dir) as {
      name: string;
      bin?: Record<string, string>;
    };
    for (const [name, bin] of Object.entries(manifest.bin ?? {})) {
      const path = join(dir, bin);
      found.push({ name, packageName: manifest.name, path, bytes: existsSync(path) ? statSync(path).size : null });
    }
  }
  return found;
}

/** One line per executable that is missing or over its ceiling (its entry in bundle-size.json, else the target). */
export function bundleSizeProblems(
  executables: readonly ShippedExecutable[],
  { targetBytes, ceilings }: BundleCeilings,
): string[] {
  const problems: string[] = [];
  for (const executable of executables) {
    if (executable.bytes === null) {
      const what = `${executable.name} (${executable.packageName})`;
      problems.push(`${what}: ${executable.path} is missing; build it (pnpm build) before this test`);
      continue;
    }
    const ceiling = ceilings[executable.name];
    const limit = ceiling ?? targetBytes;
    if (executable.bytes <= limit) continue;
    const over =
      ceiling === undefined ? `target of ${targetBytes} (no ceiling in bundle-size.json)` : `ceiling of ${ceiling}`;
    problems.push(
      `${executable.name} (${executable.packageName}) is ${executable.bytes} bytes, ` +
        `over its ${over} by ${executable.bytes - limit}. Shrink it, or raise its ceiling in bundle-size.json ` +
        "in the commit that grows the bundle, saying why (see BENCHMARKS.md, bundle size).",
    );
  }
  return problems;
}
