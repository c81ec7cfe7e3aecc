import type { ManifestEntry } from "../../release/manifest.ts";

/**
 * What the user gets to know once install wrote something: when the hooks start (Claude Code 2.1.332 watches
 * its settings files and skills dirs: a running session runs new hooks from its next prompt a second or so
 * later, and lists a new skill a few seconds later), how to check, and what carryover will write into their
 * projects, with the setting that turns each off.
 */
export function nextSteps(entries: readonly ManifestEntry[]): string[] {
  const names = new Set(entries.map((entry) => entry.name));
  const lines = [
    "next: Claude Code picks this up by itself, a running session too (from its next prompt, a few seconds on);",
    "      `carryover doctor` checks that every hook can run",
  ];
  const skill = entries.flatMap((entry) => entry.skills)[0];
  if (skill) lines.push(`      /${skill.name}: run it before a compaction you expect (the prep reminder says when)`);
  if (names.has("pre-compact")) {
    lines.push(
      "writes: before each compaction, pre-compact keeps a changes log in the project's CHANGES_SESSION.md",
      '        (off: carryover config changesFile "") and files a dated entry in the project\'s auto-memory',
      "        under ~/.claude/projects (off: carryover config pre-compact memoryEntry false)",
    );
  }
  return lines;
}
