import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tildify } from "../output/display.ts";
import { sha256Of } from "../release/manifest.ts";
import { type Check, type DoctorFacts, fail, ok, warn } from "./checks.ts";

/** Skill files carryover installed: a missing one breaks the skill; a changed one is flagged (an edit, or damage). */
export function skillChecks({ context }: DoctorFacts): Check[] {
  return Object.entries(context.installed.record.skills).map(([dir, skill]) => {
    const shown = tildify(dir, context.env);
    const hashes = skill.files.map((file) => ({ file, actual: hashOrNull(join(dir, file.path)) }));
    const missing = hashes.filter(({ actual }) => actual === null).map(({ file }) => file.path);
    const changed = hashes
      .filter(({ file, actual }) => actual !== null && actual !== file.sha256)
      .map(({ file }) => file.path);
    if (missing.length > 0)
      return fail(
        `skill ${skill.hook}: ${missing.join(", ")} missing from ${shown}`,
        `carryover install ${skill.hook}`,
      );
    if (changed.length > 0)
      return warn(
        `skill ${skill.hook}: ${changed.join(", ")} changed since install in ${shown}`,
        `carryover install ${skill.hook} --force puts the shipped files back`,
      );
    return ok(`skill ${skill.hook}: ${shown} as installed`);
  });
}

function hashOrNull(path: string): string | null {
  try {
    return sha256Of(readFileSync(path));
  } catch {
    return null;
  }
}
