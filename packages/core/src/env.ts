import type * as Os from "node:os";

/** The environment a hook sees; passed in explicitly so decisions stay testable. */
export type Env = Readonly<Record<string, string | undefined>>;

export function homeDir(env: Env): string {
  return env.HOME || os().homedir();
}

export function tmpDir(env: Env): string {
  return env.TMPDIR || os().tmpdir();
}

// node:os is not in Node's start-up snapshot: importing it costs every hook's start, and only a missing
// HOME or TMPDIR needs it. `require` serves Node 20 before 20.16, which lacks getBuiltinModule.
function os(): typeof Os {
  return process.getBuiltinModule?.("node:os") ?? require("node:os");
}

/** `1`, `true`, `yes`, `on` (any case) are on; everything else, including unset, is off. */
export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}
