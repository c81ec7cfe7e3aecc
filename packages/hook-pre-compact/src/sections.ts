import { readFileNoFollow, writeFileAtomic } from "@carryover/core";

/** The compaction a PreCompact invocation is about. */
export interface Compaction {
  sessionId: string;
  trigger: "manual" | "auto";
  promptId?: string | undefined;
  atMs: number;
}

const MARKER_PREFIX = "<!-- carryover:pre-compact ";

/** What one compaction adds to a file: a section under a `## ` heading. */
export interface Section {
  compaction: Compaction;
  /** The heading's text, without its `## `. */
  heading: string;
  body: string[];
}

/**
 * Writes `section` into the file at `path`: in place of the one an earlier PreCompact of the same compaction
 * wrote, else at the end; a file that does not exist yet starts with `head()`. The file is replaced whole (a temp
 * file and a rename), so a full disk leaves the old one.
 */
export function writeSection(path: string, head: () => string, section: Section, mode?: number): void {
  const marker = sectionMarker(section.compaction);
  const text = [`## ${section.heading}`, marker, "", ...section.body].join("\n");
  writeFileAtomic(path, upsertSection(readFileNoFollow(path) ?? head(), marker, text), mode);
}

/**
 * The line under a section's heading that names its compaction. PreCompact can fire more than once for
 * one compaction (same prompt_id, Claude Code 2.1.332), so a section is found by it and replaced.
 */
function sectionMarker(compaction: Compaction): string {
  const prompt = compaction.promptId ?? `none-${compaction.atMs}`;
  return `${MARKER_PREFIX}session=${compaction.sessionId} prompt=${prompt} -->`;
}

/**
 * Puts `section` (a `## ` heading, the marker line, a body) into `existing`: in place of the section
 * with the same marker, else at the end. Text outside carryover's sections is kept as it is.
 */
function upsertSection(existing: string, marker: string, section: string): string {
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
