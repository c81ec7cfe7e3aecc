import { basename, dirname, isAbsolute } from "node:path";
import { CliError } from "../errors.ts";
import { deepEqual } from "../json/equal.ts";
import type { Registration } from "../release/manifest.ts";

type Json = Record<string, unknown>;

/** One command handler in a settings file's `hooks`, with the event and matcher it sits under. */
interface HandlerSite {
  event: string;
  matcher: string | undefined;
  command: string;
  handler: Json;
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

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
 * What a handler of carryover's runs: the executable's name, and what it starts it with: `/bin/sh` (its
 * prelude), `.` (the status line's shell sources it: its prelude), a `node` (an earlier form, which Claude Code's
 * NODE_OPTIONS reaches), or null (the file itself).
 */
export interface OwnedRun {
  executable: string;
  launcher: string | null;
}

export const NODE = "node";
export const SH = "/bin/sh";
const SOURCED = ".";
/** The shell variable a sourced status line finds its own file in (packages/build's prelude reads it). */
export const STATUS_LINE_FILE_VARIABLE = "carryover_statusline";

/** What carryover's handlers start the executables with: `/bin/sh` runs their prelude; Windows has only Node. */
export const LAUNCHER = process.platform === "win32" ? NODE : SH;

function expandHome(word: string, home: string): string {
  return word.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/)/, home);
}

function executableAt(path: string, owner: Owner): string | null {
  const full = expandHome(path, owner.home);
  const name = basename(full);
  return dirname(full) === owner.binDir && /^carryover-[a-z0-9-]+$/.test(name) ? name : null;
}

/** `sh`, `/bin/sh`, `node`, or a node named by its absolute path (an nvm or Homebrew one), expanded; else null. */
function launcherAt(word: string, home: string): string | null {
  if (word === NODE || word === SH || word === "sh") return word;
  const full = expandHome(word, home);
  return isAbsolute(full) && basename(full) === NODE ? full : null;
}

/** The first `count` words of a shell command, quotes ('…', "…") and backslash escapes taken off. */
function shellWords(command: string, count: number): string[] {
  const word = /\s*((?:'[^']*'|"[^"]*"|\\.|[^\s'"\\])+)/y;
  const words: string[] = [];
  for (let match = word.exec(command); match && words.length < count; match = word.exec(command)) {
    words.push(
      match[1]!.replace(/'([^']*)'|"([^"]*)"|\\(.)/g, (_, single, double, escaped) => single ?? double ?? escaped),
    );
  }
  return words;
}

/**
 * What `handler` runs when it runs one of carryover's installed executables, else null. Each form carryover
 * wrote or a user may write counts, so a reinstall updates and an uninstall removes them all: exec form with
 * the path as `command` (earlier versions) or with `/bin/sh` or `node` and the path as `args[0]`; shell form (by
 * hand, a statusLine) whose first word is the path, or a launcher and then the path, or the status line's source
 * form (`shellCommandFor`). `~` and `$HOME` stand for the home.
 */
export function ownedRun(handler: { command?: unknown; args?: unknown }, owner: Owner): OwnedRun | null {
  const { command, args } = handler;
  if (typeof command !== "string") return null;
  // Exec form: the whole command is the path, spaces and all.
  const direct = executableAt(command.trim(), owner);
  if (direct) return { executable: direct, launcher: null };
  const execLauncher = launcherAt(command.trim(), owner.home);
  if (execLauncher && Array.isArray(args) && args.length > 0) {
    const executable = typeof args[0] === "string" ? executableAt(args[0], owner) : null;
    return executable ? { executable, launcher: execLauncher } : null;
  }
  const [first = "", second = "", third = ""] = shellWords(command, 3);
  const assigned = first.startsWith(`${STATUS_LINE_FILE_VARIABLE}=`) && first.endsWith(";") ? first : null;
  if (assigned && second === SOURCED && third === `$${STATUS_LINE_FILE_VARIABLE}`) {
    const sourced = executableAt(assigned.slice(STATUS_LINE_FILE_VARIABLE.length + 1, -1), owner);
    return sourced ? { executable: sourced, launcher: SOURCED } : null;
  }
  const executable = executableAt(first, owner);
  if (executable) return { executable, launcher: null };
  const shellLauncher = launcherAt(first, owner.home);
  const viaLauncher = shellLauncher ? executableAt(second, owner) : null;
  return viaLauncher ? { executable: viaLauncher, launcher: shellLauncher } : null;
}

/** The executable's name when `handler` runs one of carryover's installed executables (see ownedRun), else null. */
export function ownedExecutable(handler: { command?: unknown; args?: unknown }, owner: Owner): string | null {
  return ownedRun(handler, owner)?.executable ?? null;
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
        if (isObject(handler) && typeof handler.command === "string")
          sites.push({ event, matcher, command: handler.command, handler });
      }
    }
  }
  return sites;
}

/**
 * The handler carryover writes: exec form (`command` + `args`, no shell, so paths with spaces need no
 * quoting), `/bin/sh` with the executable and the event (its prelude runs the hook's probe for that event
 * and finds Node: packages/build), the registration's `if` when it has one, and an explicit timeout in
 * seconds. Claude Code 2.1.332 does not expand `~` or `$HOME` in `args`, hence the absolute path. On
 * Windows, `node` and the executable.
 */
export function handlerFor(executablePath: string, registration: Registration): Json {
  const { event, if: condition, timeout } = registration;
  const args = LAUNCHER === SH ? [executablePath, event] : [executablePath];
  return { type: "command", command: LAUNCHER, args, ...(condition !== undefined ? { if: condition } : {}), timeout };
}

/**
 * Makes `settings` register the executable at `executablePath` exactly for `registrations`: a handler
 * already running it (in any form ownedRun knows) is updated in place (so a reinstall leaves the file as it
 * was), a missing one is appended in a group of its own, and its handlers under events or matchers it no
 * longer uses are removed.
 */
export function syncRegistrations(
  settings: Json,
  executablePath: string,
  registrations: readonly Registration[],
  path: string,
  owner: Owner,
): void {
  const wanted = registrations.filter((registration) => registration.timeout !== undefined);
  const name = ownedExecutable({ command: executablePath }, owner);
  // Else no handler written here would be recognised as carryover's again (and null would match every foreign one).
  if (name === null)
    throw new CliError(
      `${executablePath}: not a carryover-<name> executable in ${owner.binDir}; ` +
        "the release is damaged, nothing was written",
    );
  const runs = (handler: unknown): OwnedRun | null => {
    const run = isObject(handler) ? ownedRun(handler, owner) : null;
    return run?.executable === name ? run : null;
  };
  removeHandlers(
    settings,
    (site) =>
      runs(site.handler) !== null &&
      !wanted.some(
        (registration) => registration.event === site.event && sameMatcher(registration.matcher, site.matcher),
      ),
    path,
  );
  for (const registration of wanted) upsert(settings, executablePath, registration, path, runs);
}

/** Updates the handler running this executable (to the exec form, even a hand-written shell form), else appends one. */
function upsert(
  settings: Json,
  executablePath: string,
  registration: Registration,
  path: string,
  runs: (handler: unknown) => OwnedRun | null,
): void {
  settings.hooks ??= {};
  const hooks = settings.hooks;
  if (!isObject(hooks))
    throw new CliError(`${path}: "hooks" is not an object; fix it by hand first, nothing was written`);
  hooks[registration.event] ??= [];
  const groups = hooks[registration.event];
  if (!Array.isArray(groups))
    throw new CliError(
      `${path}: "hooks.${registration.event}" is not a list; fix it by hand first, nothing was written`,
    );
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks) || !sameMatcher(group.matcher, registration.matcher)) continue;
    const index = group.hooks.findIndex((handler) => runs(handler) !== null);
    if (index === -1) continue;
    const existing = group.hooks[index] as Json;
    const merged = { ...existing, ...handlerFor(executablePath, registration) };
    // The `if` is the registration's: one it no longer has goes, the user's other keys stay.
    if (registration.if === undefined) delete merged.if;
    if (!deepEqual(merged, existing)) group.hooks[index] = merged;
    return;
  }
  groups.push({
    ...(registration.matcher !== undefined ? { matcher: registration.matcher } : {}),
    hooks: [handlerFor(executablePath, registration)],
  });
}

/**
 * Removes the handlers `shouldRemove` picks. A group, an event list or `hooks` itself is dropped only when
 * this removal emptied it: an empty list the user wrote stays. Returns how many handlers went.
 */
export function removeHandlers(settings: Json, shouldRemove: (site: HandlerSite) => boolean, path: string): number {
  const hooks = settings.hooks;
  if (hooks === undefined) return 0;
  if (!isObject(hooks))
    throw new CliError(`${path}: "hooks" is not an object; fix it by hand first, nothing was written`);
  let removed = 0;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept = groups.filter((group) => {
      if (!isObject(group) || !Array.isArray(group.hooks) || group.hooks.length === 0) return true;
      const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      const handlers = group.hooks.filter(
        (handler) =>
          !(
            isObject(handler) &&
            typeof handler.command === "string" &&
            shouldRemove({ event, matcher, command: handler.command, handler })
          ),
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
