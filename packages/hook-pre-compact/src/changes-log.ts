import { type Env, ensureLockDir, type TranscriptFacts, withFileLock } from "@carryover/core";
import { commandLines, errorLines, fileLines, oneLine, type Scope, utcMinute } from "./describe.ts";
import { type Compaction, type Section, writeSection } from "./sections.ts";

const FILE_HEAD = `# Session changes

What Claude Code sessions changed in this project, one section per compaction (newest last), written by carryover's
pre-compact hook from the session transcript just before the conversation was summarized.
`;

const MAX_FILES = 100;
const MAX_COMMANDS = 60;
const MAX_ERRORS = 40;

/** One compaction's section: the last request, files modified, commands run, errors and what fixed them. */
function changesSection(compaction: Compaction, facts: TranscriptFacts, scope: Scope): Section {
  const session = compaction.sessionId.slice(0, 8);
  const heading = `${utcMinute(compaction.atMs)} · ${compaction.trigger} compaction · session ${session}`;
  const body: string[] = [];
  if (facts.lastUserRequest) body.push(`Last request: “${oneLine(facts.lastUserRequest, 300)}”`, "");
  const { filesChanged, commands, errors } = facts.since;
  if (filesChanged.length + commands.length + errors.length === 0) {
    body.push("No files modified, commands run or errors since the previous compaction.");
    return { compaction, heading, body };
  }
  if (filesChanged.length > 0)
    body.push(`### Files modified (${filesChanged.length})`, ...fileLines(facts.since, scope, MAX_FILES), "");
  if (commands.length > 0)
    body.push(`### Commands run (${commands.length})`, ...commandLines(facts.since, MAX_COMMANDS), "");
  if (errors.length > 0) {
    const fixed = errors.filter((error) => error.resolved).length;
    body.push(`### Errors (${errors.length}, ${fixed} fixed)`, ...errorLines(errors, scope, MAX_ERRORS), "");
  }
  return { compaction, heading, body };
}

/**
 * Adds or replaces this compaction's section; creates the file with a short head when it is new. Sessions
 * of one project share the file: the lock keeps two compacting at once from dropping each other's section.
 * Returns the path.
 */
export function writeChangesLog(env: Env, path: string, compaction: Compaction, facts: TranscriptFacts, scope: Scope) {
  withFileLock(ensureLockDir(env), path, () =>
    writeSection(path, () => FILE_HEAD, changesSection(compaction, facts, scope), 0o644),
  );
  return path;
}
