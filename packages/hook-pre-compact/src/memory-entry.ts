import { lstatSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { appendLine, autoMemoryDir, CarryoverError, type Env, ensureLockDir, readFileNoFollow, type TranscriptFacts, withFileLock, writeFileAtomic } from "@carryover/core";
import { code, oneLine, progressSummary, type Scope, shownPath, utcDate, utcMinute } from "./describe.ts";
import type { PrepState } from "./prep-state.ts";
import { type Compaction, sectionMarker, upsertSection } from "./sections.ts";

const TOPIC_PREFIX = "carryover-session-";
const MAX_FILES_NAMED = 12;
const MAX_ERRORS_NAMED = 5;
const MAX_QUOTE_CHARS = 1_200;

export interface MemoryEntry {
  topicPath: string;
  /** The line added to MEMORY.md; null when the session's line was already there. */
  indexLine: string | null;
}

/**
 * Files the compaction in the project's auto-memory the way Claude Code 2.1.332 asks its model to: one
 * topic file per memory (frontmatter name/description/metadata.type) and one index line in MEMORY.md.
 * One topic file per session, a section per compaction; the index line is added once per session,
 * because MEMORY.md loads only its first 200 lines and every line there costs every session.
 */
export function writeMemoryEntry(env: Env, cwd: string, compaction: Compaction, facts: TranscriptFacts, scope: Scope, prep: PrepState | null): MemoryEntry {
  const dir = autoMemoryDir(env, cwd);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (lstatSync(dir).isSymbolicLink()) throw new CarryoverError("UNSAFE_PATH", `refusing ${dir}: it is a symlink`);
  const shortId = compaction.sessionId.slice(0, 8);
  const fileName = readdirSync(dir).find((name) => name.startsWith(TOPIC_PREFIX) && name.endsWith(`-${shortId}.md`)) ?? `${TOPIC_PREFIX}${utcDate(compaction.atMs)}-${shortId}.md`;
  const topicPath = join(dir, fileName);
  const existing = readFileNoFollow(topicPath) ?? topicHead(fileName, compaction, facts);
  writeFileAtomic(topicPath, upsertSection(existing, sectionMarker(compaction), topicSection(compaction, facts, scope, prep)));
  const indexPath = join(dir, "MEMORY.md");
  return { topicPath, indexLine: withFileLock(ensureLockDir(env), indexPath, () => addIndexLine(indexPath, fileName, compaction, facts)) };
}

function topicHead(fileName: string, compaction: Compaction, facts: TranscriptFacts): string {
  const date = utcDate(compaction.atMs);
  const task = facts.lastUserRequest ? `: ${oneLine(facts.lastUserRequest, 100)}` : "";
  return [
    "---",
    `name: ${fileName.slice(0, -".md".length)}`,
    // Double-quoted: a request can hold ": ", which ends a plain YAML scalar.
    `description: ${JSON.stringify(`Work log of session ${compaction.sessionId.slice(0, 8)} (${date}) before compaction${task}`)}`,
    "metadata:",
    "  type: project",
    "---",
    "",
    `Session ${compaction.sessionId}: what was being done each time its context was compacted (first on ${date}), saved by carryover's pre-compact hook, one section per compaction, newest last.`,
    "",
    "**Why:** compaction replaces the conversation with a summary; this keeps the task, the decisions and the files touched.",
    "**How to apply:** use it to pick the work up again; check the files it names (and the project's changes log) before redoing anything, and verify a fact before relying on it.",
    "",
  ].join("\n");
}

function topicSection(compaction: Compaction, facts: TranscriptFacts, scope: Scope, prep: PrepState | null): string {
  const lines = [`## ${utcMinute(compaction.atMs)} · ${compaction.trigger} compaction`, sectionMarker(compaction), ""];
  lines.push(`- Task: ${facts.lastUserRequest ? oneLine(facts.lastUserRequest, 400) : "(no request found in the transcript)"}`);
  const progress = progressSummary(facts);
  if (progress) lines.push(`- Progress: ${progress}`);
  const saved = prep ? ` (from /compact-prep, saved ${utcMinute(prep.savedAtMs)})` : "";
  lines.push(prep?.decisions ? `- Decisions${saved}:\n${quote(prep.decisions)}` : "- Decisions: not recorded (/compact-prep did not save them before this compaction).");
  if (prep?.constraints) lines.push(`- Constraints${saved}:\n${quote(prep.constraints)}`);
  const work = facts.since;
  if (work.filesChanged.length > 0) {
    const named = work.filesChanged.slice(0, MAX_FILES_NAMED).map((file) => code(shownPath(file.path, scope)));
    const more = work.filesChanged.length - named.length;
    lines.push(`- Files changed: ${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`);
  }
  const open = work.errors.filter((error) => !error.resolved).slice(0, MAX_ERRORS_NAMED);
  for (const error of open) lines.push(`- Unresolved: ${error.tool} ${code(oneLine(error.tool === "Bash" ? error.target : shownPath(error.target, scope), 100))}: ${oneLine(error.message, 160)}`);
  return lines.join("\n");
}

function quote(text: string): string {
  const cut = text.length > MAX_QUOTE_CHARS ? `${text.slice(0, MAX_QUOTE_CHARS)}…` : text;
  return cut
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

function addIndexLine(path: string, fileName: string, compaction: Compaction, facts: TranscriptFacts): string | null {
  const text = readFileNoFollow(path) ?? "";
  if (text.includes(`](${fileName})`)) return null;
  // Brackets in the title would end the link early.
  const task = facts.lastUserRequest ? `: ${oneLine(facts.lastUserRequest, 70).replace(/[[\]]/g, "")}` : "";
  const line = `- [Session ${utcDate(compaction.atMs)} ${compaction.sessionId.slice(0, 8)}${task}](${fileName}) — work log saved before compaction`;
  if (text !== "" && !text.endsWith("\n")) writeFileAtomic(path, `${text}\n${line}\n`);
  else appendLine(path, line);
  return line;
}
