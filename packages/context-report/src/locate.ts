import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  CarryoverError,
  dirNames,
  type Env,
  isSafeSessionId,
  projectSlug,
  projectsDir,
  transcriptPath,
} from "@carryover/core";

/**
 * The transcript a `carryover context` argument names: a path to a `.jsonl`, or a session id looked up
 * under `~/.claude/projects/*\/<id>.jsonl`. Without one: the session this runs inside
 * (`CLAUDE_CODE_SESSION_ID`, set for the Bash tool), else the newest transcript of the current directory.
 */
export function locateTranscript(argument: string | undefined, env: Env, cwd: string): string {
  if (argument === undefined) {
    const current = env.CLAUDE_CODE_SESSION_ID;
    return isSafeSessionId(current) ? bySessionId(current, env, cwd) : newestFor(env, cwd);
  }
  if (/[\\/]/.test(argument) || argument.endsWith(".jsonl")) {
    const path = resolve(cwd, argument);
    if (!isFile(path)) throw new CarryoverError("NOT_FOUND", `no transcript file at ${path}`);
    return path;
  }
  if (!isSafeSessionId(argument)) {
    throw new CarryoverError("BAD_INPUT", `${JSON.stringify(argument)} is neither a transcript path nor a session id`);
  }
  return bySessionId(argument, env, cwd);
}

function bySessionId(sessionId: string, env: Env, cwd: string): string {
  const here = transcriptPath(env, cwd, sessionId);
  if (isFile(here)) return here;
  const root = projectsDir(env);
  for (const project of dirNames(root)) {
    const path = join(root, project, `${sessionId}.jsonl`);
    if (isFile(path)) return path;
  }
  throw new CarryoverError("NOT_FOUND", `no transcript for session ${sessionId} under ${root}`);
}

function newestFor(env: Env, cwd: string): string {
  const dir = join(projectsDir(env), projectSlug(resolve(cwd)));
  let newest: { path: string; mtimeMs: number } | null = null;
  for (const name of dirNames(dir)) {
    if (!name.endsWith(".jsonl")) continue;
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isFile() && (!newest || stat.mtimeMs > newest.mtimeMs)) newest = { path, mtimeMs: stat.mtimeMs };
  }
  if (!newest)
    throw new CarryoverError(
      "NOT_FOUND",
      `no transcript for ${resolve(cwd)} in ${dir}; pass a session id or a transcript path`,
    );
  return newest.path;
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}
