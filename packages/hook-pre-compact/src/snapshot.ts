import {
  compactionWorkers,
  type Env,
  errorMessage,
  MAX_SCAN_BYTES,
  MECHANICAL_SNAPSHOT_MARK,
  mechanicalSnapshotPath,
  paneLines,
  plansDir,
  readFileHead,
  renderState,
  type Session,
  scanTranscript,
  type TmuxWindow,
  type TranscriptFacts,
  workerLine,
  writeFileAtomic,
} from "@carryover/core";
import {
  commandLines,
  errorLines,
  fileLines,
  oneLine,
  progressLines,
  progressSummary,
  type Scope,
  shownPath,
} from "./describe.ts";
import type { Compaction } from "./sections.ts";
import { transcriptSettled } from "./settled.ts";

const PLAN_HEAD_BYTES = 4096;

/** What the transcript says the session did, carryover's own files left out; null (logged) when it cannot be read. */
export async function readFacts(path: string, env: Env, ownPaths: string[], log: (message: string) => void) {
  try {
    await transcriptSettled(path);
    return await scanTranscript(path, { maxBytes: MAX_SCAN_BYTES, plansDir: plansDir(env), ownPaths });
  } catch (error) {
    log(`transcript not read (${errorMessage(error)}): no changes log, snapshot or memory entry for this compaction`);
    return null;
  }
}

/** Writes the session's mechanical snapshot; returns its path. */
export function writeSnapshot(
  session: Session,
  compaction: Compaction,
  facts: TranscriptFacts,
  scope: Scope,
  transcript: string,
  topology: Topology,
): string {
  session.ensureDir();
  const path = mechanicalSnapshotPath(session);
  writeFileAtomic(path, snapshotText(compaction, facts, scope, transcript, topology));
  return path;
}

/**
 * compact-prep's state file, every header in order, filled mechanically from the transcript: what an
 * auto-compaction leaves when nobody ran /compact-prep. Decisions are not in a transcript in any form a
 * program can read, so that section says so instead of guessing; the workers are what Claude Code recorded
 * of them, and the tmux panes of the session's window.
 */
function snapshotText(
  compaction: Compaction,
  facts: TranscriptFacts,
  scope: Scope,
  transcriptPath: string | undefined,
  topology: Topology,
): string {
  const work = facts.since;
  const unresolved = work.errors.filter((error) => !error.resolved);
  const progress = progressSummary(facts);
  return renderState(
    [
      MECHANICAL_SNAPSHOT_MARK,
      `Session: ${compaction.sessionId}`,
      `Saved: ${new Date(compaction.atMs).toISOString()}`,
      "Written by carryover's pre-compact hook from the transcript just before this compaction " +
        `(${compaction.trigger}), because /compact-prep had not saved this session's state since the previous one.`,
    ],
    {
      "## Active Plan": activePlan(facts, scope),
      "## Current Phase": [
        facts.lastUserRequest
          ? `Last request: “${oneLine(facts.lastUserRequest, 600)}”`
          : "No request found in the transcript.",
        ...(progress ? [`Progress: ${progress}.`] : []),
      ].join("\n"),
      "## TaskList Summary": progressLines(facts, 40).join("\n") || "No TodoWrite or Task list in this session.",
      "## Session Decisions":
        "Not recorded: decisions live in the conversation, which the compaction summary condenses. " +
        "Run /compact-prep before compacting to keep them here.",
      "## Constraints and Blockers":
        unresolved.length > 0
          ? ["Unresolved errors:", ...errorLines(unresolved, scope, 20)].join("\n")
          : "No unresolved errors. Constraints are not recorded mechanically.",
      "## Worker Topology": workerTopology(facts, scope, topology),
      "## Editing Files":
        work.filesChanged.length > 0
          ? ["Changed since the previous compaction:", ...fileLines(work, scope, 60)].join("\n")
          : "No file changed since the previous compaction.",
      "## Recovery Notes": [
        ...(work.commands.length > 0 ? ["Commands since the previous compaction:", ...commandLines(work, 20)] : []),
        ...(transcriptPath ? [`Full history: ${transcriptPath}`] : []),
      ].join("\n"),
    },
  );
}

export interface Topology {
  previousCompactionAtMs: number | null;
  window: TmuxWindow | null;
}

/** The workers Claude Code recorded (live ones, and those ended since the previous compaction) and the tmux panes. */
function workerTopology(facts: TranscriptFacts, scope: Scope, topology: Topology): string {
  const show = (path: string) => (path === scope.projectDir ? "." : shownPath(path, scope));
  const item = (line: string) => `- ${line}`;
  const { live, ended, omitted } = compactionWorkers(facts.workers, topology.previousCompactionAtMs);
  const lines: string[] = [];
  if (live.length > 0) {
    lines.push("Still at work when this compaction began (from the transcript):");
    lines.push(...live.map((worker) => item(workerLine(worker, show))));
  }
  if (ended.length > 0) {
    lines.push(topology.previousCompactionAtMs !== null ? "Ended since the previous compaction:" : "Ended earlier:");
    lines.push(...ended.map((worker) => item(workerLine(worker, show))));
  }
  if (omitted > 0) lines.push(`(${omitted} more left out; the transcript has them all)`);
  const { window } = topology;
  if (window) {
    lines.push(`tmux window ${window.windowId} “${window.windowName}” of session “${window.session}”:`);
    lines.push(...paneLines(window, show).map(item));
  }
  if (lines.length === 0) {
    return "No background shell, monitor, subagent or cron in the transcript, and not inside tmux.";
  }
  lines.push("Roles and assignments beyond these descriptions are not recorded mechanically.");
  return lines.join("\n");
}

function activePlan(facts: TranscriptFacts, scope: Scope): string {
  const mode = facts.planMode ? "Plan mode was on at the last prompt." : "";
  const plan = facts.plansWritten.at(-1);
  if (!plan) return mode || "No plan file written in this session.";
  const goal = planTitle(plan);
  return [`${shownPath(plan, scope)}${goal ? ` — ${goal}` : ""}`, mode].filter(Boolean).join("\n");
}

/** The plan file's first Markdown heading; null when it is gone or has none. */
function planTitle(path: string): string | null {
  try {
    const head = readFileHead(path, PLAN_HEAD_BYTES);
    const title = head?.bytes.toString("utf8").match(/^#+\s+(.+)$/m)?.[1];
    return title ? oneLine(title, 160) : null;
  } catch {
    return null;
  }
}
