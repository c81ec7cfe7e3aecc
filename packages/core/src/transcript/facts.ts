/** A file the session changed with Edit, Write, MultiEdit or NotebookEdit (successful calls only). */
export interface FileChange {
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
  count: number;
  failures: number;
}

/** A tool call that came back with `is_error: true`. */
export interface ToolError {
  tool: string;
  /** The file, command or pattern it was about ("" when the call is not known). */
  target: string;
  message: string;
  /** A later call of the same kind on the same target succeeded. */
  resolved: boolean;
  /** What succeeded later, when resolved. */
  resolution?: string;
  atMs?: number;
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
  trigger: string;
  preTokens: number;
  postTokens: number;
  atMs: number;
}

/**
 * What a transcript says about the session. Activity (files, commands, errors) covers the part after
 * the last compaction with `fromLastBoundary`; state (todos, tasks, plans, last request, plan mode,
 * compactions) always covers everything read, because it outlives a compaction.
 */
export interface TranscriptFacts {
  filesChanged: FileChange[];
  commands: CommandRun[];
  errors: ToolError[];
  /** The latest TodoWrite list; null when TodoWrite was never used. */
  todos: TodoItem[] | null;
  /** The Task tools' list (TaskCreate/TaskUpdate), deleted tasks left out. */
  tasks: TaskItem[];
  /** Files written under `~/.claude/plans/`, oldest first. */
  plansWritten: string[];
  /** The last prompt a person typed: no tool results, meta lines, slash-command echoes or summaries. */
  lastUserRequest: string | null;
  /** The last permission mode seen was "plan". */
  planMode: boolean;
  compactions: CompactionRecord[];
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
