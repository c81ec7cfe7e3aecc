/** The compaction a PreCompact invocation is about. */
export interface Compaction {
  sessionId: string;
  trigger: "manual" | "auto";
  promptId?: string | undefined;
  atMs: number;
}

const MARKER_PREFIX = "<!-- carryover:pre-compact ";

/**
 * The line under a section's heading that names its compaction. PreCompact can fire more than once for
 * one compaction (same prompt_id, Claude Code 2.1.332), so a section is found by it and replaced.
 */
export function sectionMarker(compaction: Compaction): string {
  const prompt = compaction.promptId ?? `none-${compaction.atMs}`;
  return `${MARKER_PREFIX}session=${compaction.sessionId} prompt=${prompt} -->`;
}

/**
 * Puts `section` (a `## ` heading, the marker line, a body) into `existing`: in place of the section
 * with the same marker, else at the end. Text outside carryover's sections is kept as it is.
 */
export function upsertSection(existing: string, marker: string, section: string): string {
  const lines = existing.split("\n");
  const at = lines.indexOf(marker);
  if (at === -1) return `${existing.trimEnd()}\n\n${section.trimEnd()}\n`;
  const start = at > 0 && lines[at - 1]!.startsWith("## ") ? at - 1 : at;
  let end = lines.length;
  for (let index = at + 1; index < lines.length - 1; index++) {
    if (lines[index]!.startsWith("## ") && lines[index + 1]!.startsWith(MARKER_PREFIX)) {
      end = index;
      break;
    }
  }
  const before = lines.slice(0, start).join("\n").trimEnd();
  const after = lines.slice(end).join("\n").trim();
  return `${[before, section.trimEnd(), after].filter(Boolean).join("\n\n")}\n`;
}
