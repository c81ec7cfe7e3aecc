import { existsSync, lstatSync } from "node:fs";
import {
  type CompactionWorkers,
  type CompactState,
  changesLogPath,
  compactionWorkers,
  compactStatePath,
  type Env,
  errorMessage,
  isSameCompaction,
  ledgerPath,
  loadLastCompaction,
  mechanicalSnapshotPath,
  orderStateByCount,
  plansDir,
  readCompactState,
  readLedger,
  readTmuxWindow,
  SAME_COMPACTION_WINDOW_MS,
  type Session,
  type StateOrder,
  scanTranscript,
  type TaskItem,
  type TmuxWindow,
  type TodoItem,
  type TranscriptFacts,
  tasksDir,
} from "@carryover/core";
import { readTaskList, type TaskListFacts } from "./tasks.ts";

export interface RecoveryFacts {
  /** PostCompact's marker time, or now at SessionStart(compact) (which runs before PostCompact in 2.1.332). */
  compactedAtMs: number;
  trigger?: "manual" | "auto" | undefined;
  /** Where /compact-prep keeps this session's state, whether or not it exists. */
  statePath: string;
  state: CompactState | null;
  /** The state against this compaction by PostCompact's count (see `orderStateByCount`); null: by the wall clock. */
  stateOrder: StateOrder | null;
  snapshot: { path: string; savedAtMs: number } | null;
  previousCompactionAtMs: number | null;
  earlierSummaries: { path: string; count: number } | null;
  /** Earlier compactions the transcript holds (with or without a boundary line), whatever the ledger has. */
  earlierInTranscript: { path: string; count: number } | null;
  /** Plan files this session wrote that still exist, oldest first. */
  plans: string[];
  tasks: TaskListFacts | null;
  /** The Task tools' list as the transcript tells it, when there is no task dir. */
  transcriptTasks: TaskItem[];
  todos: TodoItem[] | null;
  changesFile: string | null;
  planModeBefore: boolean;
  /** The prompt's permission mode (UserPromptSubmit only). */
  permissionModeNow?: string | undefined;
  /** Background shells, monitors, subagents and crons, as the transcript has them. */
  workers: CompactionWorkers;
  /** The tmux window Claude Code runs in; null outside tmux. */
  tmux: TmuxWindow | null;
}

export interface FactsQuery {
  session: Session;
  transcriptPath: string;
  projectDir: string;
  /** Config `stateDir` ("" = default). */
  stateDir: string;
  /** Config `changesFile`, relative to the project ("" = off). */
  changesFile: string;
  compaction: { atMs: number; trigger?: "manual" | "auto" | undefined; promptId?: string | undefined };
  permissionModeNow?: string | undefined;
  log(message: string): void;
}

const MAX_PLANS = 5;

/** Everything the recovery context points to, read through core (the transcript once, whole). */
export async function gatherFacts(query: FactsQuery): Promise<RecoveryFacts> {
  const { session, compaction, log } = query;
  const { env } = session;
  const transcript = await scan(query.transcriptPath, env, log);
  const statePath = compactStatePath(env, session.id, query.stateDir || undefined);
  const earlier = readLedger(session).filter((entry) => !isSameCompaction(entry, compaction));
  const previousFromTranscript = (transcript?.compactions ?? [])
    .map((record) => record.atMs)
    .filter((atMs): atMs is number => atMs !== null && atMs < compaction.atMs - SAME_COMPACTION_WINDOW_MS);
  // The ledger's last, not its latest time: entries are in the compactions' order, times not when a clock jumped.
  const previousCompactionAtMs = earlier.at(-1)?.atMs ?? previousFromTranscript.at(-1) ?? null;
  const tasks = readTaskList(tasksDir(env, session.id));
  const state = readStateFile(() => readCompactState(env, session.id, query.stateDir || undefined), log);
  return {
    compactedAtMs: compaction.atMs,
    trigger: compaction.trigger,
    statePath,
    state,
    stateOrder: state ? orderStateByCount(state.stamp, loadLastCompaction(session), compaction) : null,
    snapshot: fileTime(mechanicalSnapshotPath(session)),
    previousCompactionAtMs,
    earlierSummaries: earlier.length > 0 ? { path: ledgerPath(session), count: earlier.length } : null,
    earlierInTranscript:
      previousFromTranscript.length > 0 ? { path: query.transcriptPath, count: previousFromTranscript.length } : null,
    plans: (transcript?.plansWritten ?? []).filter((path) => existsSync(path)).slice(-MAX_PLANS),
    tasks,
    transcriptTasks: tasks ? [] : (transcript?.tasks ?? []),
    todos: transcript?.todos ?? null,
    changesFile: existingFile(changesLogPath(query.projectDir, query.changesFile)),
    planModeBefore: transcript?.planMode ?? false,
    permissionModeNow: query.permissionModeNow,
    workers: compactionWorkers(transcript?.workers ?? [], previousCompactionAtMs),
    tmux: tmuxWindow(env, log),
  };
}

async function scan(path: string, env: Env, log: (message: string) => void): Promise<TranscriptFacts | null> {
  try {
    return await scanTranscript(path, { plansDir: plansDir(env) });
  } catch (error) {
    log(`transcript not read (${errorMessage(error)}); recovering without plans, todos and plan mode`);
    return null;
  }
}

function tmuxWindow(env: Env, log: (message: string) => void): TmuxWindow | null {
  try {
    return readTmuxWindow(env);
  } catch (error) {
    log(`tmux panes not read: ${errorMessage(error)}`);
    return null;
  }
}

function readStateFile(read: () => CompactState | null, log: (message: string) => void): CompactState | null {
  try {
    return read();
  } catch (error) {
    log(`state file not read: ${errorMessage(error)}`);
    return null;
  }
}

/** A regular file's modification time; null for anything else (missing, a symlink, a directory). */
function fileTime(path: string): { path: string; savedAtMs: number } | null {
  try {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    return stat?.isFile() ? { path, savedAtMs: stat.mtimeMs } : null;
  } catch {
    return null;
  }
}

function existingFile(path: string | null): string | null {
  return path && fileTime(path) ? path : null;
}
