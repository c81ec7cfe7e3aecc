/** What fills the context, in the rows `/context all` uses (tool results broken out of the messages). */
export type CategoryId = "systemPrompt" | "tools" | "mcpTools" | "memoryFiles" | "skills" | "messages" | "toolResults";

export const CATEGORY_LABELS: Readonly<Record<CategoryId, string>> = {
  systemPrompt: "System prompt & environment",
  tools: "Tools",
  mcpTools: "MCP tools",
  memoryFiles: "Memory files",
  skills: "Skills",
  messages: "Messages",
  toolResults: "Tool results",
};

export const CATEGORY_ORDER: readonly CategoryId[] = [
  "systemPrompt",
  "tools",
  "mcpTools",
  "memoryFiles",
  "skills",
  "messages",
  "toolResults",
];

/** One piece of the context as read from one transcript line. */
export interface Contribution {
  category: CategoryId;
  /** The row under the category: the tool of a result, the file of a memory, the server of an MCP tool. */
  part?: string | undefined;
  /** What it is, for the largest-items list: `Read: src/app.ts`, `prompt: fix the…`. */
  label: string;
  chars: number;
}

export interface CategoryEstimate {
  id: CategoryId;
  label: string;
  tokens: number;
  /** What the figure rests on: which text, counted how, bounded by what. */
  basis: string;
  /** Share of the estimated total. */
  percent: number;
  /** Rows under it, largest first (empty when the category has none). */
  parts: Array<{ label: string; tokens: number }>;
}

export interface ContextItem {
  category: CategoryId;
  label: string;
  tokens: number;
}

/** One API response of the main conversation, in order. */
export interface UsagePoint {
  /** 1-based. */
  request: number;
  turn: number;
  atMs?: number | undefined;
  /** input + cache creation + cache read: what the request held. */
  contextTokens: number;
  inputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  outputTokens: number;
}

/** One prompt of the user and every response until the next. */
export interface TurnUsage {
  turn: number;
  /** The prompt's first line, shortened; empty for responses before any prompt. */
  prompt: string;
  atMs?: number | undefined;
  requests: number;
  /** The context of the turn's last response; null when it got none. */
  endContextTokens: number | null;
  peakContextTokens: number;
  outputTokens: number;
}

export interface CompactionMark {
  /** "manual", "auto", or "unknown" when the transcript does not say. */
  trigger: string;
  /** Responses before it: it sits between request `afterRequest` and the next. */
  afterRequest: number;
  atMs?: number | undefined;
  /** From the boundary line; without one (1.0.5x), the context of the last response before it. */
  preTokens: number | null;
  /** Null when the transcript does not say (a compaction with no boundary line). */
  postTokens: number | null;
  /** False: Claude Code wrote only the summary line. */
  boundary: boolean;
}

/** What the session did since its last compaction, as the transcript (and its subagents' transcripts) tell it. */
export interface WorkRecord {
  /** "start": no compaction; else the last one (`line` 1-based in the transcript). */
  since: "start" | { line: number | null; trigger: string; preTokens: number | null; postTokens: number | null };
  /** The user's last real request: a prompt, a slash command with its arguments, `!cmd` bash input. */
  lastRequest: string | null;
  /** Absolute paths, changed by successful Edit, Write, MultiEdit, NotebookEdit calls. */
  filesChanged: Array<{ path: string; count: number }>;
  commands: Array<{ command: string; runs: number; failures: number }>;
  errors: Array<{ tool: string; target: string; message: string; resolved: boolean }>;
  /** The last TodoWrite list; the Task tools' list. */
  todos: Array<{ content: string; status: string }>;
  tasks: Array<{ id: string; subject: string; status: string }>;
  /** Background shells, monitors, subagents and crons: those still at work, and those that ended since `since`. */
  workers: Array<{ kind: string; id: string; description: string; command: string | null; state: string }>;
}

export interface Advice {
  /** What it is about: a category, or the level against the auto-compact point. */
  topic: CategoryId | "level";
  text: string;
}

export interface ContextReport {
  transcriptPath: string;
  transcriptBytes: number;
  sessionId: string | null;
  /** The session's working directory, as its transcript last says. */
  cwd: string | null;
  model: string | null;
  /** The context now as the API measured it: the last response's usage, or the last compaction's postTokens. */
  measuredTokens: number | null;
  measuredSource: "response" | "compaction" | null;
  /** The sum of the categories: an estimate from the transcript text. */
  estimatedTokens: number;
  /** How the system prompt and tools were sized. */
  systemSource: "request-shape" | "first-response" | "none";
  /** What the session did since its last compaction (`carryover context --json`'s public record). */
  work: WorkRecord;
  modelWindowTokens: number;
  /** Where auto-compaction fires; null when it is off. */
  autoCompactTokens: number | null;
  /** measuredTokens as a percent of autoCompactTokens. */
  autoCompactPercent: number | null;
  categories: CategoryEstimate[];
  dominant: CategoryId | null;
  largestItems: ContextItem[];
  series: UsagePoint[];
  turns: TurnUsage[];
  compactions: CompactionMark[];
  advice: Advice[];
  /** Lines that were not JSON (a torn last line, say). */
  badLines: number;
}
