import { lstatSync } from "node:fs";
import type { Env } from "../env.ts";
import { readFileNoFollow } from "../fs/atomic.ts";
import { checkCompactStateDir, compactStatePath } from "./paths.ts";
import { readStateStamp } from "./state-order.ts";

/** The compact-prep state file's headers, in the order they must appear (seed 003, part A). */
export const STATE_HEADERS = [
  "# Compact Prep State",
  "## Active Plan",
  "## Current Phase",
  "## TaskList Summary",
  "## Session Decisions",
  "## Constraints and Blockers",
  "## Worker Topology",
  "## Editing Files",
  "## Recovery Notes",
] as const;

export type StateHeader = (typeof STATE_HEADERS)[number];

/** First line after the title of a snapshot carryover wrote from the transcript, not the agent. */
export const MECHANICAL_SNAPSHOT_MARK = "<!-- carryover: mechanical snapshot -->";

export interface StateVerification {
  ok: boolean;
  missing: StateHeader[];
  /** Present, but after a header that should follow it. */
  outOfOrder: StateHeader[];
}

function headerLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trimEnd());
}

/** Every header present, each on its own line, in order. */
export function verifyState(text: string): StateVerification {
  const lines = headerLines(text);
  const missing: StateHeader[] = [];
  const outOfOrder: StateHeader[] = [];
  let lastIndex = -1;
  for (const header of STATE_HEADERS) {
    const index = lines.indexOf(header);
    if (index === -1) missing.push(header);
    else if (index < lastIndex) outOfOrder.push(header);
    else lastIndex = index;
  }
  return { ok: missing.length === 0 && outOfOrder.length === 0, missing, outOfOrder };
}

/** The body under each header (trimmed); headers absent from the text are absent here. */
export function stateSections(text: string): Partial<Record<StateHeader, string>> {
  const sections: Partial<Record<StateHeader, string>> = {};
  let current: StateHeader | null = null;
  let body: string[] = [];
  const flush = () => {
    if (current) sections[current] = body.join("\n").trim();
  };
  for (const line of headerLines(text)) {
    if ((STATE_HEADERS as readonly string[]).includes(line)) {
      flush();
      current = line as StateHeader;
      body = [];
    } else if (current) {
      body.push(line);
    }
  }
  flush();
  return sections;
}

export function isMechanicalSnapshot(text: string): boolean {
  return text.includes(MECHANICAL_SNAPSHOT_MARK);
}

// What `renderState` puts in a section nobody filled, and what an agent writes for "nothing here".
const EMPTY_BODY = /^(\(none\)|none\.?|n\/a|-|)$/i;

/** A section's body, or null when it is absent or says there is nothing. */
export function sectionText(sections: Partial<Record<StateHeader, string>>, header: StateHeader): string | null {
  const body = sections[header]?.trim() ?? "";
  return EMPTY_BODY.test(body) ? null : body;
}

/** Every header present with nothing under any of them: a template nobody filled (yet). */
export function isUnfilledState(text: string): boolean {
  const sections = stateSections(text);
  return STATE_HEADERS.slice(1).every((header) => sectionText(sections, header) === null);
}

/** A session's compact-prep state file as read once: when it was saved, whether it is complete, what it holds. */
export interface CompactState {
  path: string;
  savedAtMs: number;
  /** The compactions counted when `carryover-state init` wrote its template (`stampCompactState`), else null. */
  stamp: number | null;
  verification: StateVerification;
  /** A template nobody filled. */
  unfilled: boolean;
  /** Written by carryover from the transcript, not by the agent through /compact-prep. */
  mechanical: boolean;
  sections: Partial<Record<StateHeader, string>>;
}

/**
 * The session's state file (`compactStatePath`; `stateDir` from config, undefined for the default), or null when
 * there is none or it is not a regular file. Throws UNSAFE_PATH when its dir, or one above it in a shared temp dir,
 * is not private: another user could have made the dir and planted the file, so only our own private dirs are trusted.
 */
export function readCompactState(env: Env, sessionId: string, stateDir?: string): CompactState | null {
  const path = compactStatePath(env, sessionId, stateDir);
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile()) return null;
  checkCompactStateDir(env, stateDir);
  const text = readFileNoFollow(path);
  if (text === null) return null;
  return {
    path,
    savedAtMs: stat.mtimeMs,
    stamp: readStateStamp(path),
    verification: verifyState(text),
    unfilled: isUnfilledState(text),
    mechanical: isMechanicalSnapshot(text),
    sections: stateSections(text),
  };
}

/** Renders a full state file from section bodies, every header present and in order. */
export function renderState(lead: readonly string[], bodies: Partial<Record<StateHeader, string>>): string {
  const [title, ...sections] = STATE_HEADERS;
  return [
    title,
    "",
    ...lead,
    "",
    ...sections.flatMap((header) => [header, "", bodies[header]?.trim() || "(none)", ""]),
  ].join("\n");
}

/** A state file with every header and empty sections, for the agent to fill. */
export function stateTemplate(sessionId: string, nowMs: number): string {
  return renderState([`Session: ${sessionId}`, `Saved: ${new Date(nowMs).toISOString()}`], {});
}
