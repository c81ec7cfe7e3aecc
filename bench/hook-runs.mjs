import { existsSync, readFileSync, rmSync } from "node:fs";
import { createSandbox } from "./sandbox.mjs";

/**
 * A case context in a fresh sandbox whose transcript is `transcript` (a path the context links in).
 * @returns {import("./cases/types.ts").CaseContext}
 */
export function caseContext(kit, label, payloadsDir, transcript) {
  return kit.prepareContext(createSandbox(label), payloadsDir, transcript);
}

/**
 * How Claude Code runs a hook carryover installed: `/bin/sh <file> <event>` (exec form: the file's sh prelude
 * decides what it can, then starts Node); the status line's command through `/bin/sh -c`, as it runs every
 * status line (that shell sources the file: its prelude runs there). The payload on stdin, the project as cwd.
 */
export function hookProc(hook, hookCase, context, extraEnv = {}) {
  const payload = hookCase.payload(context);
  return {
    ...(hook.statusLine
      ? { command: "/bin/sh", args: ["-c", hook.shellCommand] }
      : { command: "/bin/sh", args: [hook.binPath, payload.hook_event_name] }),
    file: hook.binPath,
    input: JSON.stringify(payload),
    // Claude Code 2.1.332 gives hooks and the status line their session id in the environment too.
    env: { ...context.env, CLAUDE_CODE_SESSION_ID: payload.session_id, ...extraEnv },
    cwd: context.projectDir,
  };
}

/**
 * What a measured path must show before it is timed: the stdout it promises, the effect it promises,
 * and no line in carryover's log (a hook fails open: an internal error would otherwise be timed as a
 * suspiciously fast path).
 */
export function checkHookCase(kit, hookCase, context, stdout) {
  if (hookCase.expect === null && stdout.trim() !== "")
    return `printed ${JSON.stringify(stdout.slice(0, 120))}, expected nothing`;
  if (hookCase.expect !== null && !stdout.includes(hookCase.expect))
    return `stdout ${JSON.stringify(stdout.slice(0, 120))} lacks ${JSON.stringify(hookCase.expect)}`;
  const problem = hookCase.verify?.(context) ?? null;
  if (problem) return problem;
  const log = kit.logPath(context.env);
  if (existsSync(log)) {
    const text = readFileSync(log, "utf8").trim();
    rmSync(log);
    if (text) return `logged ${JSON.stringify(text.split("\n").at(-1).slice(0, 200))}`;
  }
  return null;
}

/** The arguments `node` takes to run a process's JavaScript alone: its file's (a hook's sh prelude skipped). */
export function jsArgv(proc) {
  if (proc.command === "node") return proc.args ?? [];
  return proc.file ? [proc.file] : [proc.command, ...(proc.args ?? [])];
}
