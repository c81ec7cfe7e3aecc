/** A file the session changed with Edit, Write, MultiEdit or NotebookEdit (successful calls only). */
export interface FileChange {
  /** As the tool got it: absolute. */
  path: string;
  /** The tools that changed it, first use first. */
  tools: string[];
  count: number;
}

/** A distinct Bash command. */
export interface CommandRun {
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
  /** 1-based line of the compact_boundary, or of the summary line when there is none; null when only the tail was read. */
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
