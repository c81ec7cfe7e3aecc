import { homedir, tmpdir } from "node:os";

/** The environment a hook sees; passed in explicitly so decisions stay testable. */
export type Env = Readonly<Record<string, string | undefined>>;

export function homeDir(env: Env): string {
  return env.HOME || homedir();
}

export function tmpDir(env: Env): string {
  return env.TMPDIR || tmpdir();
}

/** `1`, `true`, `yes`, `on` (any case) are on; everything else, including unset, is off. */
export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}
