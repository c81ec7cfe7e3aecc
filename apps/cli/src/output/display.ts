import { type Env, homeDir } from "@carryover/core";

/** `/home/me/.claude/settings.json` → `~/.claude/settings.json`, for messages only. */
export function tildify(path: string, env: Env): string {
  const home = homeDir(env);
  return path === home ? "~" : path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** `SessionStart(compact)`, `statusLine`, `PostCompact`. */
export function registrationLabel(registration: { event: string; matcher?: string | undefined }): string {
  return registration.matcher ? `${registration.event}(${registration.matcher})` : registration.event;
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
