import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Context } from "../context.ts";
import { type ManifestEntry, sha256Of, verifiedFile } from "../release/manifest.ts";
import type { Change } from "./changes.ts";
import { type FoundNode, linkedNode, NODE_LINK } from "./node.ts";

/**
 * Installed executables have no extension, and Node (22, 24 and 26 alike) runs an extensionless file as ESM when
 * a package.json with "type":"module" sits above it (one in $HOME is enough); the bundles are CommonJS.
 */
export const BIN_GUARD_FILE = "package.json";
export const BIN_GUARD = `{"type":"commonjs"}\n`;

function readBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

function isExecutable(path: string): boolean {
  try {
    return (statSync(path).mode & 0o111) === 0o111;
  } catch {
    return false;
  }
}

/** Copies each entry's executables into the bin dir unless the same bytes are already there; updates the record. */
export function planExecutables(context: Context, entries: readonly ManifestEntry[]): Change[] {
  const changes: Change[] = [];
  const guard = join(context.binDir, BIN_GUARD_FILE);
  if (readBytes(guard)?.toString("utf8") !== BIN_GUARD)
    changes.push({ kind: "copy", path: guard, data: Buffer.from(BIN_GUARD), mode: 0o644 });
  for (const entry of entries) {
    for (const executable of entry.executables) {
      const data = verifiedFile(context.release, executable.file, executable.sha256);
      const target = join(context.binDir, executable.name);
      const existing = readBytes(target);
      if (!existing || sha256Of(existing) !== executable.sha256 || !isExecutable(target))
        changes.push({ kind: "copy", path: target, data, mode: 0o755 });
      context.installed.record.executables[executable.name] = {
        hook: entry.name,
        version: entry.version,
        sha256: executable.sha256,
      };
    }
  }
  return changes;
}

/**
 * The V8 code cache files earlier versions' status line wrote (`~/.claude/carryover/cache/<name>-<hash>-<node>.v8`),
 * which no build writes any more but users still have; the dir goes once that empties it.
 */
function leftoverCodeCache(context: Context, name: string): Change[] {
  const dir = join(dirname(context.binDir), "cache");
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files = names.filter((file) => file.startsWith(`${name}-`) && file.endsWith(".v8"));
  if (files.length === 0) return [];
  return [...files.map((file): Change => ({ kind: "remove", path: join(dir, file) })), { kind: "rmdir", path: dir }];
}

/**
 * Removes executables no recorded settings file uses any more, and the bin dir's guard once it is alone.
 * `unrecorded`: executables settings ran that no record knows (a lost record), removed with them.
 */
export function planExecutableRemoval(
  context: Context,
  hooks: ReadonlySet<string>,
  unrecorded: ReadonlySet<string> = new Set(),
): Change[] {
  const record = context.installed.record;
  const stillUsed = new Set(Object.values(record.files).flatMap((file) => file.hooks));
  const changes: Change[] = [];
  const removed = [...unrecorded];
  for (const [name, executable] of Object.entries(record.executables)) {
    if (!hooks.has(executable.hook) || stillUsed.has(executable.hook)) continue;
    removed.push(name);
    delete record.executables[name];
  }
  for (const name of removed)
    changes.push({ kind: "remove", path: join(context.binDir, name) }, ...leftoverCodeCache(context, name));
  if (Object.keys(record.executables).length === 0 && changes.length > 0) {
    changes.push({ kind: "remove", path: join(context.binDir, BIN_GUARD_FILE) });
    if (linkedNode(context.binDir) !== null) changes.push({ kind: "remove", path: join(context.binDir, NODE_LINK) });
    changes.push({ kind: "rmdir", path: context.binDir });
  }
  return changes;
}

/**
 * carryover's executables in the bin dir that no install record knows: what an install stopped before its end (a
 * kill, a power cut) copied. The record is written last, with the settings, so no completed install runs them.
 */
export function orphanExecutables(context: Context): string[] {
  let names: string[];
  try {
    names = readdirSync(context.binDir);
  } catch {
    return [];
  }
  return names.filter((name) => name.startsWith("carryover-") && !(name in context.installed.record.executables));
}

/**
 * Links the chosen Node beside the executables, where their sh prelude starts it first (Windows runs
 * them with `node` instead). Nothing when no Node was found: the prelude then tries PATH's.
 */
export function planNodeLink(context: Context, node: FoundNode | null): Change[] {
  if (process.platform === "win32" || !node || linkedNode(context.binDir) === node.path) return [];
  return [{ kind: "link", path: join(context.binDir, NODE_LINK), target: node.path }];
}
