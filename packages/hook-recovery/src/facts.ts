import { existsSync, lstatSync } from "node:fs";
import {
  type CompactionWorkers,
  type CompactState,
  changesLogPath,
  compactionStartBefore,
  compactionWorkers,
  compactStatePath,
  conversationCollector,
  type Env,
  errorMessage,
  type LedgerEntry,
  ledgerPath,
  loadLastCompaction,
  mechanicalSnapshotPath,
  orderStateByCount,
  plansCollector,
  plansDir,
  readCompactionStarts,
  readCompactState,
  readLedger,
  readTmuxWindow,
  type Session,
  type StateOrder,
  scanTranscriptFor,
  type TaskItem,
  type TmuxWindow,
  type TodoItem,
  tasksDir,
  workersCollector,
} from "@carryover/core";
import { readTaskList, type TaskListFacts } from "./tasks.ts";

export interface RecoveryFacts {
  /**
   * When this compaction began, as PreCompact recorded it (core's compaction starts), the name pre-compact's output
   * gave it; else PostCompact's marker time, or now at SessionStart(compact) (before PostCompact in 2.1.332).
   */
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
  compaction: CompactionQuery;
  permissionModeNow?: string | undefined;
  log(message: string): void;
}

/** This compaction, and where it stands yet: found by position, since two compactions can come seconds apart. */
interface CompactionQuery {
  atMs: number;
  trigger?: "manual" | "auto" | undefined;
  promptId?: string | undefined;
  /** Its compact_boundary is in the transcript: not yet during SessionStart(compact) (2.1.332), by the next prompt. */
  inTranscript: boolean;
  /** PostCompact filed it in the ledger: after SessionStart(compact) in 2.1.332, before the next prompt. */
  inLedger: boolean;
}

const MAX_PLANS = 5;

/** Everything the recovery context points to, read through core (the transcript once, whole). */
export async function gatherFacts(query: FactsQuery): Promise<RecoveryFacts> {
  const { session, compaction, log } = query;
  const { env } = session;
  const transcript = await scan(query.transcriptPath, env, log);
  const statePath = compactStatePath(env, session.id, query.stateDir || undefined);
  const earlier = earlierLedgerEntries(readLedger(session), compaction);
  const records = transcript?.compactions ?? [];
  const earlierRecords = compaction.inTranscript ? records.slice(0, -1) : records;
  // The last by order (ledger, else transcript), not the latest time: a clock that jumped dates compactions wrongly.
  const previousCompactionAtMs = earlier.at(-1)?.atMs ?? earlierRecords.at(-1)?.atMs ?? null;
  const tasks = readTaskList(tasksDir(env, session.id));
  const state = readStateFile(() => readCompactState(env, session.id, query.stateDir || undefined), log);
  return {
    compactedAtMs: compactionStartBefore(compaction.atMs, previousCompactionAtMs, readCompactionStarts(session)),
    trigger: compaction.trigger,
    statePath,
    state,
    stateOrder: state ? orderStateByCount(state.stamp, loadLastCompaction(session), compaction) : null,
    snapshot: fileTime(mechanicalSnapshotPath(session)),
    previousCompactionAtMs,
    earlierSummaries: earlier.length > 0 ? { path: ledgerPath(session), count: earlier.length } : null,
    earlierInTranscript:
      earlierRecords.length > 0 ? { path: query.transcriptPath, count: earlierRecords.length } : null,
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

/** The ledger without this compaction: by prompt id where its entries have one, else by position (the last). */
function earlierLedgerEntries(entries: LedgerEntry[], compaction: CompactionQuery): LedgerEntry[] {
  if (compaction.promptId && entries.at(-1)?.promptId) {
    return entries.filter((entry) => entry.promptId !== compaction.promptId);
  }
  return compaction.inLedger ? entries.slice(0, -1) : entries;
}

async function scan(path: string, env: Env, log: (message: string) => void) {
  try {
    return await scanTranscriptFor(path, [conversationCollector, plansCollector, workersCollector], {
      plansDir: plansDir(env),
    });
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
