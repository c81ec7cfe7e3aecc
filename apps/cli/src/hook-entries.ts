import { basename, dirname } from "node:path";
import { CliError } from "./errors.ts";
import { deepEqual } from "./json-doc.ts";
import type { Registration } from "./release.ts";

type Json = Record<string, unknown>;

/** One command handler in a settings file's `hooks`, with the event and matcher it sits under. */
export interface HandlerSite {
  event: string;
  matcher: string | undefined;
  command: string;
  handler: Json;
}

const isObject = (value: unknown): value is Json => value !== null && typeof value === "object" && !Array.isArray(value);

/** Claude Code runs a group without a matcher, with "" and with "*" for every source / tool alike. */
function sameMatcher(a: unknown, b: unknown): boolean {
  const normal = (value: unknown) => (value === undefined || value === "" || value === "*" ? "" : value);
  return normal(a) === normal(b);
}

/** Where carryover's executables are installed, and the home `~` stands for in hand-written entries. */
export interface Owner {
  binDir: string;
  home: string;
}

/**
 * The executable's name when `command` runs one of carryover's installed executables, else null: the exec
 * form's absolute path, or a hand-written shell command such as `~/.claude/carryover/bin/carryover-pin --x`.
 */
export function ownedExecutable(command: unknown, owner: Owner): string | null {
  if (typeof command !== "string") return null;
  // Exec form: the whole command is the path, spaces and all. Shell form: its first word, maybe quoted.
  const word = /^\s*(?:'([^']*)'|"([^"]*)"|(\S+))/.exec(command);
  for (const candidate of [command.trim(), word?.[1] ?? word?.[2] ?? word?.[3] ?? ""]) {
    const path = candidate.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/)/, owner.home);
    const name = basename(path);
    if (dirname(path) === owner.binDir && /^carryover-[a-z0-9-]+$/.test(name)) return name;
  }
  return null;
}

export function listHandlers(settings: Json): HandlerSite[] {
  const hooks = settings.hooks;
  if (!isObject(hooks)) return [];
  const sites: HandlerSite[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      for (const handler of group.hooks) {
        if (isObject(handler) && typeof handler.command === "string") sites.push({ event, matcher, command: handler.command, handler });
      }
    }
  }
  return sites;
}

/**
 * The handler carryover writes: exec form (`command` + `args`, no shell, so paths with spaces need no
 * quoting; Claude Code 2.1.332 accepts it) and an explicit timeout in seconds. Exec form does not expand
 * `~` or `$HOME` (checked on 2.1.332), hence the absolute path.
 */
export function handlerFor(command: string, timeoutSeconds: number): Json {
  return { type: "command", command, args: [], timeout: timeoutSeconds };
}

/**
 * Makes `settings` register `command` exactly for `registrations`: an existing handler is updated in
 * place (so a reinstall leaves the file as it was), a missing one is appended in a group of its own, and
 * handlers of `command` under events or matchers it no longer uses are removed.
 */
export function syncRegistrations(settings: Json, command: string, registrations: readonly Registration[], path: string, owner: Owner): void {
  const wanted = registrations.filter((registration) => registration.timeout !== undefined);
  const name = ownedExecutable(command, owner);
  const isOurs = (handlerCommand: unknown) => ownedExecutable(handlerCommand, owner) === name;
  removeHandlers(settings, (site) => isOurs(site.command) && !wanted.some((registration) => registration.event === site.event && sameMatcher(registration.matcher, site.matcher)), path);
  for (const registration of wanted) upsert(settings, command, registration, path, isOurs);
}

/** Updates the handler running this executable (in exec form, even one written by hand in shell form), else appends one. */
function upsert(settings: Json, command: string, registration: Registration, path: string, isOurs: (command: unknown) => boolean): void {
  const hooks = settings.hooks ?? (settings.hooks = {});
  if (!isObject(hooks)) throw new CliError(`${path}: "hooks" is not an object; fix it by hand first, nothing was written`);
  const groups = hooks[registration.event] ?? (hooks[registration.event] = []);
  if (!Array.isArray(groups)) throw new CliError(`${path}: "hooks.${registration.event}" is not a list; fix it by hand first, nothing was written`);
  const desired = handlerFor(command, registration.timeout!);
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks) || !sameMatcher(group.matcher, registration.matcher)) continue;
    const index = group.hooks.findIndex((handler) => isObject(handler) && isOurs(handler.command));
    if (index === -1) continue;
    const merged = { ...(group.hooks[index] as Json), ...desired };
    if (!deepEqual(merged, group.hooks[index])) group.hooks[index] = merged;
    return;
  }
  groups.push({ ...(registration.matcher !== undefined ? { matcher: registration.matcher } : {}), hooks: [desired] });
}

/**
 * Removes the handlers `shouldRemove` picks. A group, an event list or `hooks` itself is dropped only when
 * this removal emptied it: an empty list the user wrote stays. Returns how many handlers went.
 */
export function removeHandlers(settings: Json, shouldRemove: (site: HandlerSite) => boolean, path: string): number {
  const hooks = settings.hooks;
  if (hooks === undefined) return 0;
  if (!isObject(hooks)) throw new CliError(`${path}: "hooks" is not an object; fix it by hand first, nothing was written`);
  let removed = 0;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept = groups.filter((group) => {
      if (!isObject(group) || !Array.isArray(group.hooks) || group.hooks.length === 0) return true;
      const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      const handlers = group.hooks.filter(
        (handler) => !(isObject(handler) && typeof handler.command === "string" && shouldRemove({ event, matcher, command: handler.command, handler })),
      );
      removed += group.hooks.length - handlers.length;
      if (handlers.length === group.hooks.length) return true;
      group.hooks = handlers;
      return handlers.length > 0;
    });
    if (kept.length === groups.length) continue;
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (removed > 0 && Object.keys(hooks).length === 0) delete settings.hooks;
  return removed;
}
