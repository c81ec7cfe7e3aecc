import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { binDir, type Env, homeDir } from "@carryover/core";
import { type ParsedArgs, stringFlag } from "./args.ts";
import { type LoadedRecord, loadInstallRecord } from "./install/record.ts";
import type { Io } from "./io.ts";
import { loadRelease, type ManifestEntry, type Release } from "./release/manifest.ts";
import type { Owner } from "./settings/handlers.ts";

/** What most commands share: where things are, the release to install from, what is installed. */
export interface Context {
  io: Io;
  env: Env;
  projectDir: string;
  binDir: string;
  /** How carryover's own entries are recognised in settings files. */
  owner: Owner;
  release: Release;
  installed: LoadedRecord;
}

/**
 * `releaseOptional`: commands that only look at or remove what is installed still work when the shipped
 * release is missing (an empty release stands in), but not when `--from` names a bad one.
 */
export function createContext(io: Io, args: ParsedArgs, options: { releaseOptional?: boolean } = {}): Context {
  const from = stringFlag(args.flags.from);
  const releaseDir = from ? resolve(io.cwd, from) : io.shippedReleaseDir;
  const canSkip = options.releaseOptional && !from && !existsSync(join(releaseDir, "manifest.json"));
  return {
    io,
    env: io.env,
    projectDir: resolve(io.cwd, stringFlag(args.flags.project) ?? "."),
    binDir: binDir(io.env),
    owner: { binDir: binDir(io.env), home: homeDir(io.env) },
    release: canSkip ? { dir: releaseDir, entries: [] } : loadRelease(releaseDir),
    installed: loadInstallRecord(io.env),
  };
}

/** Which hook an installed executable belongs to: the release says, else the install record. */
export function hookOfExecutable(context: Context, executable: string): string | null {
  const fromRelease = context.release.entries.find((entry) =>
    entry.executables.some((candidate) => candidate.name === executable),
  );
  return fromRelease?.name ?? context.installed.record.executables[executable]?.hook ?? null;
}

export function executablesOf(context: Context, hook: string): string[] {
  const names = new Set<string>();
  for (const entry of context.release.entries)
    if (entry.name === hook) for (const executable of entry.executables) names.add(executable.name);
  for (const [name, record] of Object.entries(context.installed.record.executables))
    if (record.hook === hook) names.add(name);
  return [...names];
}

/** The executable a hook's registrations run: its first (hooks have exactly one). */
export function mainExecutable(entry: ManifestEntry): string | undefined {
  return entry.executables[0]?.name;
}

/** Every hook and skill name the release or the install record knows. */
export function knownNames(context: Context): string[] {
  const record = context.installed.record;
  return [
    ...new Set([
      ...context.release.entries.map((entry) => entry.name),
      ...Object.values(record.executables).map((executable) => executable.hook),
      ...Object.values(record.skills).map((skill) => skill.hook),
    ]),
  ];
}
