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
 * How Claude Code runs a hook carryover installed: `node <file>` (exec form; the status line's shell command
 * is the same, its shell not counted as `node -e 0` has none), the payload on stdin, the project as cwd.
 */
export function hookProc(hook, hookCase, context, extraEnv = {}) {
  return {
    command: "node",
    args: [hook.binPath],
    file: hook.binPath,
    input: JSON.stringify(hookCase.payload(context)),
    env: { ...context.env, ...extraEnv },
    cwd: context.projectDir,
  };
}

/**
 * What a measured path must show before it is timed: the stdout it promises, the effect it promises,
 * and no line in carryover's log (a hook fails open: an internal error would otherwise be timed as a
 * suspiciously fast path).
 */
export function checkHookCase(kit, hookCase, context, stdout) {
  if (hookCase.expect === null && stdout.trim() !== "") return `printed ${JSON.stringify(stdout.slice(0, 120))}, expected nothing`;
  if (hookCase.expect !== null && !stdout.includes(hookCase.expect)) return `stdout ${JSON.stringify(stdout.slice(0, 120))} lacks ${JSON.stringify(hookCase.expect)}`;
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
