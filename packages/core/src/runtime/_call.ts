import { isSafeSessionId } from "../claude/session-id.ts";
import type { Env } from "../env.ts";

// Linux's PATH_MAX. A longer cwd or transcript_path is not a path, and every path function is linear in its
// input: a cwd of megabytes would slow every path operation of the hook.
const MAX_PATH_CHARS = 4096;

/** One invocation's stdin, read and checked once for the hook or status line it goes to. */
export interface Call {
  stdinText: string;
  /** Null when stdin was empty, not a JSON object, or held a path field too long to be a path. */
  payload: Record<string, unknown> | null;
  /** Why there is no payload, as a log line; null when there is one. */
  refusal: string | null;
  /** The payload's session id when it is a safe token, else null (schemas refuse it, the status line shows). */
  sessionId: string | null;
  projectDir: string;
}

/** Parses stdin and finds the project dir by the one rule every hook and the status line share. */
export function readCall(stdinText: string, env: Env): Call {
  const { payload, refusal } = parse(stdinText);
  return {
    stdinText,
    payload,
    refusal,
    sessionId: payload && isSafeSessionId(payload.session_id) ? payload.session_id : null,
    projectDir: projectDirOf(env, payload),
  };
}

function parse(text: string): Pick<Call, "payload" | "refusal"> {
  if (text.trim() === "") return { payload: null, refusal: "empty stdin; nothing to do" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const start = JSON.stringify(text.slice(0, 24));
    return { payload: null, refusal: `stdin is not JSON (${text.length} chars, starts ${start})` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { payload: null, refusal: "stdin is not a JSON object" };
  }
  const payload = value as Record<string, unknown>;
  for (const key of ["cwd", "transcript_path"]) {
    const field = payload[key];
    if (typeof field === "string" && field.length > MAX_PATH_CHARS) {
      return { payload: null, refusal: `${key} of ${field.length} chars is not a path; nothing to do` };
    }
  }
  return { payload, refusal: null };
}

/**
 * `CLAUDE_PROJECT_DIR` (Claude Code sets it for hooks and the status line), else the status line's
 * `workspace.project_dir`, else the payload's cwd, else the process's.
 */
function projectDirOf(env: Env, payload: Record<string, unknown> | null): string {
  const workspace = payload?.workspace as Record<string, unknown> | null | undefined;
  for (const dir of [env.CLAUDE_PROJECT_DIR, workspace?.project_dir, payload?.cwd]) {
    if (typeof dir === "string" && dir !== "" && dir.length <= MAX_PATH_CHARS) return dir;
  }
  return process.cwd();
}
