import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Context, hookOfExecutable } from "../context.ts";
import { BIN_GUARD, BIN_GUARD_FILE } from "../install/plan-executables.ts";
import { tildify } from "../output/display.ts";
import { sha256Of } from "../release/manifest.ts";
import type { InstalledSite } from "../settings/layers.ts";
import { type Check, type DoctorFacts, fail, ok, warn } from "./checks.ts";

/** Every carryover executable the record lists or settings run. */
function executableNames(context: Context, sites: readonly InstalledSite[]): string[] {
  return [
    ...new Set([...Object.keys(context.installed.record.executables), ...sites.map((site) => site.executable)]),
  ].sort();
}

/** Every carryover executable that settings run or the record lists: present, executable, the bytes installed. */
export function executableChecks({ context, sites }: DoctorFacts): Check[] {
  const record = context.installed.record.executables;
  const names = executableNames(context, sites);
  const checks: Check[] = [];
  if (names.length === 0) return [warn("no carryover hook is installed", "carryover install --recommended")];
  let guard: string | null = null;
  try {
    guard = readFileSync(join(context.binDir, BIN_GUARD_FILE), "utf8");
  } catch {
    // checked below
  }
  if (guard !== BIN_GUARD)
    checks.push(
      fail(
        `${tildify(join(context.binDir, BIN_GUARD_FILE), context.env)} is missing or changed: ` +
          'a "type":"module" package.json above it would break the hooks',
        "carryover install <any installed hook> writes it again",
      ),
    );
  for (const name of names) {
    const hook = hookOfExecutable(context, name) ?? name;
    const path = join(context.binDir, name);
    const shown = tildify(path, context.env);
    const reinstall = `carryover install ${hook}`;
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch {
      checks.push(fail(`${shown} is missing`, reinstall));
      continue;
    }
    if ((statSync(path).mode & 0o111) === 0) {
      checks.push(fail(`${shown} is not executable`, `chmod +x ${shown}, or ${reinstall}`));
      continue;
    }
    const expected =
      record[name]?.sha256 ??
      context.release.entries.flatMap((entry) => entry.executables).find((executable) => executable.name === name)
        ?.sha256;
    if (expected && sha256Of(data) !== expected) {
      checks.push(fail(`${shown} changed since it was installed (sha256 differs)`, reinstall));
      continue;
    }
    const shipped = context.release.entries.find((entry) => entry.name === hook);
    const installedVersion = record[name]?.version;
    if (shipped && installedVersion && shipped.version !== installedVersion)
      checks.push(warn(`${hook} ${installedVersion} is installed; this release has ${shipped.version}`, reinstall));
    else
      checks.push(
        ok(
          `${hook}${installedVersion ? ` ${installedVersion}` : ""}: ${shown} present, executable, sha256 as installed`,
        ),
      );
  }
  return checks;
}
