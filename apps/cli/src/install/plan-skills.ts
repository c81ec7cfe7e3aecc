import { readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Context } from "../context.ts";
import { CliError } from "../errors.ts";
import { type ManifestEntry, sha256Of, verifiedFile } from "../release/manifest.ts";
import type { Change } from "./changes.ts";

function hashOf(path: string): string | null {
  try {
    return sha256Of(readFileSync(path));
  } catch {
    return null;
  }
}

function modeOf(path: string): number | null {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return null;
  }
}

/**
 * Copies the entry's skills into `<skillsDir>/<name>/`. A file there that carryover did not put there is
 * the user's: it is never overwritten unless `force`.
 */
export function planSkillInstall(context: Context, entry: ManifestEntry, skillsDir: string, force: boolean): Change[] {
  const changes: Change[] = [];
  for (const skill of entry.skills) {
    const dir = join(skillsDir, skill.name);
    const recorded = context.installed.record.skills[dir];
    for (const file of skill.files) {
      const target = join(dir, file.path);
      const existing = hashOf(target);
      if (existing === file.sha256 && modeOf(target) === file.mode) continue;
      const ours = recorded?.files.some((known) => known.path === file.path && known.sha256 === existing);
      if (existing !== null && existing !== file.sha256 && !ours && !force) {
        throw new CliError(
          `${target} exists and is not carryover's; move it away or pass --force to overwrite it (nothing was written)`,
        );
      }
      changes.push({
        kind: "copy",
        path: target,
        data: verifiedFile(context.release, join(skill.dir, file.path), file.sha256),
        mode: file.mode,
      });
    }
    for (const stale of recorded?.files ?? []) {
      if (skill.files.some((file) => file.path === stale.path)) continue;
      const target = join(dir, stale.path);
      if (hashOf(target) === stale.sha256) changes.push({ kind: "remove", path: target });
    }
    context.installed.record.skills[dir] = {
      hook: entry.name,
      version: entry.version,
      files: skill.files.map(({ path, sha256 }) => ({ path, sha256 })),
    };
  }
  return changes;
}

/** Removes the hook's skill files from `skillsDir` that are still as installed; changed ones stay, with a note. */
export function planSkillRemoval(
  context: Context,
  hooks: ReadonlySet<string>,
  skillsDir: string,
  notes: string[],
): Change[] {
  const changes: Change[] = [];
  const recorded = new Set<string>();
  for (const [dir, skill] of Object.entries(context.installed.record.skills)) {
    if (!hooks.has(skill.hook) || dirname(dir) !== skillsDir) continue;
    recorded.add(dir);
    const dirs = new Set<string>();
    for (const file of skill.files) {
      const target = join(dir, file.path);
      const existing = hashOf(target);
      if (existing === file.sha256) changes.push({ kind: "remove", path: target });
      else if (existing !== null) notes.push(`kept ${target}: changed since carryover installed it`);
      for (let parent = dirname(target); parent.startsWith(dir); parent = dirname(parent)) dirs.add(parent);
    }
    for (const parent of [...dirs].sort((a, b) => b.length - a.length)) changes.push({ kind: "rmdir", path: parent });
    delete context.installed.record.skills[dir];
  }
  changes.push(...orphanSkillRemoval(context, hooks, skillsDir, recorded));
  if (changes.length > 0) changes.push({ kind: "rmdir", path: skillsDir });
  return changes;
}

/**
 * A skill of the release in `skillsDir` that no record knows (an install stopped before its end copied it): its
 * files still byte for byte as the release ships them are carryover's, and go; any other file stays.
 */
function orphanSkillRemoval(
  context: Context,
  hooks: ReadonlySet<string>,
  skillsDir: string,
  recorded: ReadonlySet<string>,
): Change[] {
  const changes: Change[] = [];
  for (const entry of context.release.entries.filter((one) => hooks.has(one.name))) {
    for (const skill of entry.skills) {
      const dir = join(skillsDir, skill.name);
      // A recorded skill was planned above, and its record entry deleted with it.
      if (recorded.has(dir) || dir in context.installed.record.skills) continue;
      const ours = skill.files.filter((file) => hashOf(join(dir, file.path)) === file.sha256);
      if (ours.length === 0) continue;
      changes.push(...ours.map((file): Change => ({ kind: "remove", path: join(dir, file.path) })));
      const dirs = new Set<string>();
      for (const file of ours)
        for (let parent = dirname(join(dir, file.path)); parent.startsWith(dir); parent = dirname(parent))
          dirs.add(parent);
      for (const parent of [...dirs].sort((a, b) => b.length - a.length)) changes.push({ kind: "rmdir", path: parent });
    }
  }
  return changes;
}
