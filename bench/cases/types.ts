import type { Env } from "../../packages/core/src/index.ts";

/** One benchmark sandbox: a throwaway HOME and git project, and the environment a hook gets there. */
export interface CaseContext {
  home: string;
  projectDir: string;
  env: Env;
  sessionId: string;
  /** A generated transcript shaped like Claude Code's (`HookCase.transcriptBytes`), where Claude Code keeps it. */
  transcriptPath: string;
  /** A captured 2.1.332 payload (test-fixtures/payloads) with its paths moved into this sandbox. */
  captured(name: string): Record<string, unknown>;
}

export interface HookCase {
  /** "fast" and "active" make the per-prompt totals; any other name is an extra row. */
  name: string;
  /** What the hook finds and does on this path, for the table. */
  what: string;
  /** This path runs on (nearly) every prompt, response or edit in normal use: the start-up target applies. */
  everyPrompt?: boolean;
  payload(context: CaseContext): Record<string, unknown>;
  /** Runs before every run, outside the timing: puts the files this path needs in place. */
  setup?(context: CaseContext): void;
  /** The transcript behind the payload's transcript_path; default 5 MB (a working session's after an hour or two). */
  transcriptBytes?: number;
  /** What stdout must contain on this path; null: it must print nothing. Checked before timing. */
  expect: string | null;
  /** An effect this path must leave (a marker, a reading); returns the problem, or null. */
  verify?(context: CaseContext): string | null;
}

export interface HookCases {
  hook: string;
  cases: HookCase[];
}
