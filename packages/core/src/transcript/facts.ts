/** A file the session changed with Edit, Write, MultiEdit or NotebookEdit (successful calls only). */
interface FileChange {
  /** As the tool got it: absolute. */
  path: string;
  /** The tools that changed it, first use first. */
  tools: string[];
  count: number;
}

/** A distinct Bash command. */
interface CommandRun {
  command: string;
  /** Its latest run failed. */
  failed: boolean;
  runs: number;
  failures: number;
}

/** A tool call that came back with `is_error: true`. */
export interface ToolError {
  tool: string;
  /** The file, command, URL, pattern, query or subagent it was about; else its input as JSON, cut. */
  target: string;
  message: string;
  /** The session fixed it later (`resolution` says how). */
  resolved: boolean;
  resolution?: string;
  atMs?: number;
  /** 1-based line of the call in its transcript; absent when only the file's tail was read. */
  line?: number;
  /** The subagent transcript it is from (2.x); absent for the session's own file. */
  agentId?: string;
}

export interface TodoItem {
  content: string;
  status: string;
}

export interface TaskItem {
  id: string;
  subject: string;
  status: string;
}

export interface CompactionRecord {
  /** 1-based line of the compact_boundary, else of the summary line; null when only the tail was read. */
  line: number | null;
  /** False: Claude Code wrote only the `isCompactSummary` line (1.0.5x to 1.0.7x). */
  boundary: boolean;
  /** "manual", "auto", or "unknown" when the file does not say. */
  trigger: string;
  /** The context when it compacted: the boundary's figure, else the last main-chain response before it. */
  preTokens: number | null;
  /** The context right after; null when the file does not say (never 0 for unknown). */
  postTokens: number | null;
  atMs: number | null;
  /** What the summary said, without Claude Code's wrapping, cut at 16,000 characters; null when not in the file. */
  summary: string | null;
}

/**
 * What a worker is: a background shell (`Bash` with `run_in_background`), a `Monitor`, a subagent (`Agent`, or
 * `Task` before 2.1), or a scheduled prompt (`CronCreate`).
 */
export type WorkerKind = "shell" | "monitor" | "agent" | "cron";

/**
 * Where a worker stands as the transcript tells it. `stopped`: it did not finish before its Claude Code process
 * ended (2.1.332 says so on resume); `unknown`: its call got no result, yet the session went on; `ended`: a cron
 * Claude Code no longer carried at a later compaction (a one-shot that fired, or one that expired).
 */
export type WorkerState =
  | "running"
  | "completed"
  | "failed"
  | "killed"
  | "stopped"
  | "unknown"
  | "scheduled"
  | "deleted"
  | "ended";

/** A worker the session started, from what Claude Code wrote about it (its call, result and notifications). */
export interface Worker {
  kind: WorkerKind;
  /** Claude Code's id for it (`b59zb2ul9`, `bash_1`, an agentId, a cron job's id); the tool_use id when it has none. */
  id: string;
  /** The call's description (a cron's prompt); "" when it had none. */
  description: string;
  /** A shell's or monitor's command, a cron's schedule; null for an agent. */
  command: string | null;
  state: WorkerState;
  /** An agent's subagent_type. */
  agentType?: string;
  /** It ran in the background: shells and monitors always, an agent when it was launched async. */
  background: boolean;
  /** Where Claude Code writes its output (a background agent's is a link to its transcript). */
  outputFile?: string;
  /** A 2.x subagent's own transcript (`<session>/subagents/agent-<id>.jsonl`), when it exists. */
  transcript?: string;
  /** How it ended, in Claude Code's words ("Background command \"x\" failed with exit code 3"). */
  detail?: string;
  startedAtMs: number | null;
  /** When the transcript says it ended; null while it runs or when the file does not say. */
  endedAtMs: number | null;
  /** 1-based line of the call; absent when only the file's tail was read or it is known from a later line only. */
  line?: number;
  /** The 2.x subagent whose transcript started it; absent for the session's own calls. */
  startedBy?: string;
}

/** Files, commands and errors over a stretch of the session. */
export interface Activity {
  filesChanged: FileChange[];
  commands: CommandRun[];
  errors: ToolError[];
}

/**
 * What a transcript says about the session. Activity (files, commands, errors) comes twice: over everything
 * read and since the last compaction; state (todos, tasks, plans, last request, plan mode, compactions)
 * covers everything read, because it outlives a compaction. Subagents' work counts as the session's.
 */
export interface TranscriptFacts extends Activity {
  /** Activity after the last compaction (`compaction` null: there is none, so it is all of it). */
  since: Activity & { compaction: CompactionRecord | null };
  /** The latest TodoWrite list of the main chain; null when TodoWrite was never used. */
  todos: TodoItem[] | null;
  /** The Task tools' list (TaskCreate/TaskUpdate), deleted tasks left out. */
  tasks: TaskItem[];
  /** Files written under `~/.claude/plans/`, oldest first. */
  plansWritten: string[];
  /**
   * The user's last real request: a prompt, a slash command with its arguments, bash-mode input (`!cmd`).
   * Not /compact-prep, local commands, expansions, hook text, tool results or summaries.
   */
  lastUserRequest: string | null;
  /** The last permission mode seen was "plan". */
  planMode: boolean;
  compactions: CompactionRecord[];
  /** Background shells, monitors, subagents and crons the session started, oldest first. */
  workers: Worker[];
  /** 2.x subagent transcripts read beside the session's (`<session>/subagents/agent-*.jsonl`). */
  subagentFiles: number;
  /** carryover's own writes (state file, changes log, memory) and commands (`carryover-state`), left out. */
  carryoverActivity: { fileChanges: number; commands: number };
  skipped: {
    /** Candidate lines that were not JSON or not the expected shape. */
    badLines: number;
    /** The last line had no newline: Claude Code was writing it. */
    truncatedTail: boolean;
    /** Lines over 16 MiB, passed over unread. */
    longLines: number;
    /** Bytes before the `maxBytes` window, not read. */
    headBytes: number;
    /** Oldest entries dropped to keep each list within its cap. */
    droppedEntries: number;
  };
  bytesRead: number;
}
