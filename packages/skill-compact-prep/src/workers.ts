import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  compactionWorkers,
  type Env,
  paneLines,
  projectsDir,
  readTmuxWindow,
  scanWorkers,
  transcriptPath,
  workerLine,
} from "@carryover/core";

/**
 * The Worker Topology facts Claude Code recorded: the session's background shells, monitors, subagents and crons
 * (live, and ended since the last compaction) from its transcript, and the panes of its tmux window.
 */
export async function workersText(sessionId: string, env: Env, cwd: string): Promise<string> {
  const transcript = findTranscript(env, sessionId, cwd);
  const lines: string[] = [];
  if (transcript) {
    const facts = await scanWorkers(transcript);
    const { live, ended, omitted } = compactionWorkers(facts.workers, facts.compactions.at(-1)?.atMs ?? null);
    if (live.length > 0) lines.push("Still at work:", ...live.map((worker) => `- ${workerLine(worker)}`));
    if (ended.length > 0) {
      lines.push(facts.compactions.length > 0 ? "Ended since the last compaction:" : "Ended:");
      lines.push(...ended.map((worker) => `- ${workerLine(worker)}`));
    }
    if (omitted > 0) lines.push(`(${omitted} more in ${transcript})`);
  } else {
    lines.push(`No transcript of session ${sessionId} under ${projectsDir(env)}: no workers read.`);
  }
  const window = readTmuxWindow(env);
  if (window) {
    lines.push(`tmux window ${window.windowId} “${window.windowName}” of session “${window.session}”:`);
    lines.push(...paneLines(window).map((line) => `- ${line}`));
  }
  if (lines.length === 0)
    lines.push("No background shell, monitor, subagent or cron in the transcript, and not inside tmux.");
  return `${lines.join("\n")}\n`;
}

/** The session's transcript: under the cwd's slug (the Bash tool's cwd is the project), else under any slug. */
function findTranscript(env: Env, sessionId: string, cwd: string): string | null {
  const own = transcriptPath(env, cwd, sessionId);
  if (isFile(own)) return own;
  let slugs: string[];
  try {
    slugs = readdirSync(projectsDir(env));
  } catch {
    return null;
  }
  for (const slug of slugs) {
    const path = join(projectsDir(env), slug, `${sessionId}.jsonl`);
    if (isFile(path)) return path;
  }
  return null;
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}
