/**
 * One line of a Claude Code transcript (JSONL) as parsed: nothing in it is trusted, so every reader checks the
 * fields it uses. Conversation lines (`user`, `assistant`, `system`, `attachment`) and bookkeeping lines
 * (`permission-mode`, `api-request-shape`, …) share this one shape; 2.1.332 adds fields between versions.
 */
export interface TranscriptLine {
  type?: unknown;
  subtype?: unknown;
  uuid?: unknown;
  sessionId?: unknown;
  cwd?: unknown;
  timestamp?: unknown;
  isSidechain?: unknown;
  isMeta?: unknown;
  isCompactSummary?: unknown;
  isVisibleInTranscriptOnly?: unknown;
  permissionMode?: unknown;
  mode?: unknown;
  sourceToolUseID?: unknown;
  message?: { id?: unknown; model?: unknown; content?: unknown; usage?: unknown };
  toolUseResult?: unknown;
  attachment?: { type?: unknown; hookEvent?: unknown; content?: unknown; prompt?: unknown; tasks?: unknown };
  /** `queue-operation` lines: `enqueue` with the queued text in `content`. */
  operation?: unknown;
  content?: unknown;
  rendered?: unknown;
  shape?: unknown;
  compactMetadata?: {
    trigger?: unknown;
    preTokens?: unknown;
    postTokens?: unknown;
    preservedMessages?: { allUuids?: unknown; uuids?: unknown };
  };
}

/** A transcript line's JSON, or null when it is not JSON or not an object (a torn or foreign line). */
export function parseTranscriptLine(text: string): TranscriptLine | null {
  try {
    const line: unknown = JSON.parse(text);
    // typeof null is "object" too: null stays null.
    return typeof line === "object" ? (line as TranscriptLine | null) : null;
  } catch {
    return null;
  }
}
