import { lstatSync, mkdirSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import {
  autoMemoryDir,
  CarryoverError,
  type Env,
  ensureLockDir,
  readFileNoFollow,
  type TranscriptFacts,
  withFileLock,
  writeFileAtomic,
} from "@carryover/core";
import { code, oneLine, progressSummary, type Scope, shownPath, utcDate, utcMinute } from "./describe.ts";
import type { PrepState } from "./prep-state.ts";
import { type Compaction, type Section, writeSection } from "./sections.ts";

const TOPIC_PREFIX = "carryover-session-";
/** The one file MEMORY.md links to: the recent sessions' work logs, newest first. */
const SESSIONS_FILE = "carryover-sessions.md";
/** How many sessions' work logs are kept; older ones are pruned with their topic files. */
const MAX_SESSIONS = 20;
const MAX_FILES_NAMED = 12;
const MAX_ERRORS_NAMED = 5;
const MAX_QUOTE_CHARS = 1_200;
const INDEX_LINE =
  `- [carryover: recent sessions' work logs](${SESSIONS_FILE})` +
  " — what each session was doing when its context was compacted";
const SESSION_ENTRY = /^- \[(.*)\]\((carryover-session-[^/)]+\.md)\)$/;

export interface MemoryEntry {
  topicPath: string;
  /** The line added to MEMORY.md; null when it was there already. */
  indexLine: string | null;
}

/**
 * Files the compaction in the auto-memory Claude Code loads, the way 2.1.332 asks its model to: one topic file
 * per memory (frontmatter name/description/metadata.type) and an index line in MEMORY.md. One topic file per
 * session, a section per compaction; the last `MAX_SESSIONS` sessions are listed, newest first, in one more topic
 * file, and MEMORY.md holds one line to it however many sessions compact: Claude Code loads only MEMORY.md's
 * first 200 lines and 25,000 characters, so every line there costs every session. Each file is replaced whole
 * (a temp file and a rename), so a full disk leaves the old one, never a torn line.
 */
export function writeMemoryEntry(
  env: Env,
  cwd: string,
  compaction: Compaction,
  facts: TranscriptFacts,
  scope: Scope,
  prep: PrepState | null,
): MemoryEntry {
  const dir = autoMemoryDir(env, cwd, scope.projectDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (lstatSync(dir).isSymbolicLink()) throw new CarryoverError("UNSAFE_PATH", `refusing ${dir}: it is a symlink`);
  const shortId = compaction.sessionId.slice(0, 8);
  const fileName =
    readdirSync(dir).find((name) => name.startsWith(TOPIC_PREFIX) && name.endsWith(`-${shortId}.md`)) ??
    `${TOPIC_PREFIX}${utcDate(compaction.atMs)}-${shortId}.md`;
  const topicPath = join(dir, fileName);
  writeSection(topicPath, () => topicHead(fileName, compaction, facts), topicSection(compaction, facts, scope, prep));
  const indexPath = join(dir, "MEMORY.md");
  const title = sessionTitle(compaction, facts);
  const indexLine = withFileLock(ensureLockDir(env), indexPath, () => {
    const pruned = updateSessions(join(dir, SESSIONS_FILE), fileName, title, readFileNoFollow(indexPath) ?? "");
    for (const name of pruned) removeTopic(join(dir, name));
    return updateIndex(indexPath);
  });
  return { topicPath, indexLine };
}

function sessionTitle(compaction: Compaction, facts: TranscriptFacts): string {
  // Brackets in the title would end the link early.
  const task = facts.lastUserRequest ? `: ${oneLine(facts.lastUserRequest, 70).replace(/[[\]]/g, "")}` : "";
  return `${utcDate(compaction.atMs)} ${compaction.sessionId.slice(0, 8)}${task}`;
}

/**
 * Puts this session first in the sessions file (a session compacting again moves up), keeps `MAX_SESSIONS`, and
 * returns the topic files that fell off. Sessions an earlier carryover indexed in MEMORY.md itself, one line each,
 * are taken in after the listed ones, in their order there, newest last.
 */
function updateSessions(path: string, fileName: string, title: string, index: string): string[] {
  const listed = entriesOf(readFileNoFollow(path) ?? "");
  const older = entriesOf(index).reverse();
  const seen = new Set([fileName]);
  const entries = [{ title, fileName }];
  for (const entry of [...listed, ...older]) {
    if (seen.has(entry.fileName)) continue;
    seen.add(entry.fileName);
    entries.push(entry);
  }
  writeFileAtomic(path, sessionsText(entries.slice(0, MAX_SESSIONS)));
  return entries.slice(MAX_SESSIONS).map((entry) => entry.fileName);
}

function entriesOf(text: string): Array<{ title: string; fileName: string }> {
  const entries: Array<{ title: string; fileName: string }> = [];
  for (const line of text.split("\n")) {
    // An earlier carryover's index line: `- [Session <date> <id>: <task>](<file>) — work log saved before …`.
    const match = SESSION_ENTRY.exec(
      line.replace(/ \u2014 work log saved before compaction$/, "").replace(/^- \[Session /, "- ["),
    );
    if (match) entries.push({ title: match[1]!, fileName: match[2]! });
  }
  return entries;
}

function sessionsText(entries: Array<{ title: string; fileName: string }>): string {
  return [
    "---",
    `name: ${SESSIONS_FILE.slice(0, -".md".length)}`,
    `description: "The last ${MAX_SESSIONS} sessions that compacted in this project, newest first: a work log each"`,
    "metadata:",
    "  type: project",
    "---",
    "",
    "What the recent sessions of this project were doing each time their context was compacted, newest first," +
      " one work log each (saved by carryover's pre-compact hook;" +
      ` sessions older than the last ${MAX_SESSIONS} are pruned).`,
    "",
    ...entries.map((entry) => `- [${entry.title}](${entry.fileName})`),
    "",
  ].join("\n");
}

/**
 * MEMORY.md gets the one line to the sessions file if it lacks it, and loses the lines an earlier carryover added
 * per session; the user's lines stay as they are, in their order.
 */
function updateIndex(path: string): string | null {
  const text = readFileNoFollow(path) ?? "";
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const kept = lines.filter((line) => !isOldSessionLine(line));
  const has = kept.some((line) => line.includes(`](${SESSIONS_FILE})`));
  if (has && kept.length === lines.length) return null;
  const next = has ? kept : [...kept, INDEX_LINE];
  const mode = lstatSync(path, { throwIfNoEntry: false })?.mode;
  writeFileAtomic(path, `${next.join("\n")}\n`, mode === undefined ? undefined : mode & 0o777);
  return has ? null : INDEX_LINE;
}

function isOldSessionLine(line: string): boolean {
  return /^- \[Session .*\]\(carryover-session-[^/)]+\.md\) \u2014 work log saved before compaction$/.test(line);
}

// Only carryover's own work logs are removed; a file that is not one (a user's, a link) stays.
function removeTopic(path: string): void {
  const text = readFileNoFollow(path);
  if (text === null || !text.includes("saved by carryover's pre-compact hook")) return;
  unlinkSync(path);
}

function topicHead(fileName: string, compaction: Compaction, facts: TranscriptFacts): string {
  const date = utcDate(compaction.atMs);
  const shortId = compaction.sessionId.slice(0, 8);
  const task = facts.lastUserRequest ? `: ${oneLine(facts.lastUserRequest, 100)}` : "";
  return [
    "---",
    `name: ${fileName.slice(0, -".md".length)}`,
    // Double-quoted: a request can hold ": ", which ends a plain YAML scalar.
    `description: ${JSON.stringify(`Work log of session ${shortId} (${date}) before compaction${task}`)}`,
    "metadata:",
    "  type: project",
    "---",
    "",
    `Session ${compaction.sessionId}: what was being done each time its context was compacted (first on ${date}), ` +
      "saved by carryover's pre-compact hook, one section per compaction, newest last.",
    "",
    "**Why:** compaction replaces the conversation with a summary; this keeps the task, the decisions and the " +
      "files touched.",
    "**How to apply:** use it to pick the work up again; check the files it names (and the project's changes log) " +
      "before redoing anything, and verify a fact before relying on it.",
    "",
  ].join("\n");
}

function topicSection(compaction: Compaction, facts: TranscriptFacts, scope: Scope, prep: PrepState | null): Section {
  const lines = [
    `- Task: ${facts.lastUserRequest ? oneLine(facts.lastUserRequest, 400) : "(no request found in the transcript)"}`,
  ];
  const progress = progressSummary(facts);
  if (progress) lines.push(`- Progress: ${progress}`);
  const saved = prep ? ` (from /compact-prep, saved ${utcMinute(prep.savedAtMs)})` : "";
  lines.push(
    prep?.decisions
      ? `- Decisions${saved}:\n${quote(prep.decisions)}`
      : "- Decisions: not recorded (/compact-prep did not save them before this compaction).",
  );
  if (prep?.constraints) lines.push(`- Constraints${saved}:\n${quote(prep.constraints)}`);
  const work = facts.since;
  if (work.filesChanged.length > 0) {
    const named = work.filesChanged.slice(0, MAX_FILES_NAMED).map((file) => code(shownPath(file.path, scope)));
    const more = work.filesChanged.length - named.length;
    lines.push(`- Files changed: ${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`);
  }
  const open = work.errors.filter((error) => !error.resolved).slice(0, MAX_ERRORS_NAMED);
  for (const error of open) {
    const target = code(oneLine(error.tool === "Bash" ? error.target : shownPath(error.target, scope), 100));
    lines.push(`- Unresolved: ${error.tool} ${target}: ${oneLine(error.message, 160)}`);
  }
  return { compaction, heading: `${utcMinute(compaction.atMs)} · ${compaction.trigger} compaction`, body: lines };
}

function quote(text: string): string {
  const cut = text.length > MAX_QUOTE_CHARS ? `${text.slice(0, MAX_QUOTE_CHARS)}…` : text;
  return cut
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
