import { usageError } from "../errors.ts";
import type { Io } from "../io.ts";
import { unknownNameMessage } from "../output/closest.ts";
import { registrationLabel } from "../output/display.ts";
import { loadRelease, type ManifestEntry, type Release } from "./manifest.ts";

interface SelectionFlags {
  all: boolean;
  recommended: boolean;
}

/** `post-compact`, `hook-post-compact`, `@carryover/hook-post-compact`, `carryover-post-compact`: one hook. */
export function normalizeName(name: string): string {
  return name.replace(/^@carryover\//, "").replace(/^(hook|skill|carryover)-/, "");
}

function findEntry(entries: readonly ManifestEntry[], name: string): ManifestEntry {
  const wanted = normalizeName(name);
  const found = entries.find((entry) => entry.name === wanted);
  if (!found) {
    const names = entries.map((entry) => entry.name);
    throw usageError(unknownNameMessage("hook", name, names));
  }
  return found;
}

/** The named entries, or all / the recommended ones; in manifest order, each once. */
export function selectEntries(
  release: Release,
  names: readonly string[],
  flags: SelectionFlags,
  verb: string,
): ManifestEntry[] {
  if (flags.all && flags.recommended) throw usageError("--all and --recommended exclude each other");
  if ((flags.all || flags.recommended) && names.length > 0)
    throw usageError(`name hooks or use --${flags.all ? "all" : "recommended"}, not both`);
  if (flags.all) return [...release.entries];
  if (flags.recommended) return release.entries.filter((entry) => entry.recommended);
  if (names.length === 0) {
    const available = release.entries.map((entry) => entry.name).join(", ");
    throw usageError(`name the hooks to ${verb} (${available}), or use --recommended / --all`);
  }
  const chosen = new Set(names.map((name) => findEntry(release.entries, name).name));
  return release.entries.filter((entry) => chosen.has(entry.name));
}

/** The hooks and skills the shipped release holds, one line each (`carryover list` describes them), for a help text. */
export function choices(io: Io): string {
  let release: Release;
  try {
    release = loadRelease(io.shippedReleaseDir);
  } catch {
    return "  (no release beside this CLI: name a release dir with --from)";
  }
  const width = Math.max(...release.entries.map((entry) => entry.name.length));
  return release.entries
    .map((entry) => {
      const runs = entry.registrations.map(registrationLabel).join(", ") || "skill";
      return `  ${entry.name.padEnd(width)}  ${entry.recommended ? "*" : " "} ${runs}`;
    })
    .join("\n");
}
