import { writeSync } from "node:fs";
import type { ConfigSection } from "../config/keys.ts";
import type { Env } from "../env.ts";
import { oversizedPathField, projectDirOf } from "./_payload.ts";
import type { FastPathContext, LazyHook } from "./run-hook.ts";
import { isSafeSessionId } from "../claude/session-id.ts";
import { HOOK_STDIN_LIMITS, readStdinSync } from "./_stdin.ts";
import { isDebug, isHookEnabled } from "./switches.ts";

type Stdin = { text: string } | { error: unknown };

/**
 * The bin file's call, and all a fast path pays for at start-up: stdin read synchronously, the payload
 * parsed, the hook's `skip`. Anything else (work to do, a payload to refuse, a config problem or an error
 * to log) goes to `runHook`, which an executable carries as deferred code (packages/build) and so compiles
 * only then. Exits 0 whatever happens.
 */
export function main<S extends ConfigSection>(hook: LazyHook<S>): void {
  const env = process.env;
  const startMs = Date.now();
  const trace = (message: string) => {
    if (isDebug(env)) writeSync(2, `carryover ${hook.name}: ${message}\n`);
  };
  if (!isHookEnabled(env, hook.name)) return trace("disabled by CARRYOVER/CARRYOVER_DISABLE");
  let stdin: Stdin;
  try {
    stdin = { text: readStdinSync(HOOK_STDIN_LIMITS) };
  } catch (error) {
    stdin = { error };
  }
  if (hook.skip && "text" in stdin && skips(hook.skip, stdin.text, env, startMs)) return trace(`fast path: nothing to do (${Date.now() - startMs} ms)`);
  import("./run-hook.ts")
    .then(({ runHook }) =>
      runHook(hook, env, {
        readInput: () => ("text" in stdin ? Promise.resolve(stdin.text) : Promise.reject(stdin.error)),
        writeOutput: (text) => writeSync(1, text),
        writeTrace: (text) => writeSync(2, text),
      }),
    )
    .catch((error: unknown) => trace(String(error)))
    .finally(() => process.exit(0));
}

/**
 * The hook's own fast path on the raw payload. False sends the payload to `runHook`, which repeats the
 * checks with logging: a payload it would refuse, a `skip` that throws (or that met a config problem).
 */
function skips(skip: NonNullable<LazyHook<ConfigSection>["skip"]>, text: string, env: Env, nowMs: number): boolean {
  try {
    const payload: unknown = JSON.parse(text);
    if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return false;
    const fields = payload as Record<string, unknown>;
    if (!isSafeSessionId(fields.session_id) || oversizedPathField(fields)) return false;
    return skip({ payload: fields as FastPathContext["payload"], env, nowMs, projectDir: projectDirOf(env, fields) });
  } catch {
    return false;
  }
}
