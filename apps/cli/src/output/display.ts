import { type Env, homeDir } from "@carryover/core";

/** `/home/me/.claude/settings.json` → `~/.claude/settings.json`, for messages only. */
export function tildify(path: string, env: Env): string {
  const home = homeDir(env);
  return path === home ? "~" : path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** Each path under HOME in a message (one that starts it or follows a space or a quote), as `tildify` shows it. */
export function tildifyPaths(text: string, env: Env): string {
  const home = homeDir(env);
  if (home.length < 2) return text;
  const escaped = home.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return text.replace(new RegExp(`(^|[\\s"'(])${escaped}(?=/|$|[\\s:;,)"'])`, "g"), "$1~");
}

/** `SessionStart(compact)`, `statusLine`, `PostCompact`. */
export function registrationLabel(registration: { event: string; matcher?: string | undefined }): string {
  return registration.matcher ? `${registration.event}(${registration.matcher})` : registration.event;
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
