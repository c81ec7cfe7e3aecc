import { readFileSync } from "node:fs";

/**
 * Claude Code 2.1.332's --debug-file line for each hook run, with the command:
 * `Hooks: <Event>[:<source>] [<command>] finished with status <n> (…ms)`, or for PreCompact and PostCompact
 * `<Event>:<trigger> [<command>] completed with status <n>` (those two are absent from --include-hook-events).
 */
interface HookRun {
  event: string;
  source: string | undefined;
  command: string;
  status: number;
}

/** A hook registration as settings.json holds it: the event and the group's matcher. */
interface HookRegistration {
  event: string;
  matcher?: string;
}

export function hookRuns(debugFile: string): HookRun[] {
  const runs: HookRun[] = [];
  const line = /\[DEBUG\] (?:Hooks: )?(\w+)(?::(\S+))? \[(.+?)\] (?:completed|finished) with status (\d+)/gm;
  for (const match of readFileSync(debugFile, "utf8").matchAll(line)) {
    runs.push({ event: match[1]!, source: match[2], command: match[3]!, status: Number(match[4]) });
  }
  return runs;
}

/** Whether `command` ran for `registration` with status 0, on a source its matcher takes. */
export function ran(runs: HookRun[], command: string, registration: HookRegistration): boolean {
  return runs.some(
    (run) =>
      run.command === command &&
      run.event === registration.event &&
      run.status === 0 &&
      (!registration.matcher || new RegExp(`^(?:${registration.matcher})$`).test(run.source ?? "")),
  );
}

/** Each carryover hook a settings.json registers (its command under `binDir`), as the debug file names it. */
export function registeredCommands(
  settingsText: string,
  binDir: string,
): Array<{ command: string; registration: HookRegistration }> {
  type Handler = { command: string; args?: string[] };
  const { hooks = {} } = JSON.parse(settingsText) as {
    hooks?: Record<string, Array<{ matcher?: string; hooks: Handler[] }>>;
  };
  return Object.entries(hooks).flatMap(([event, groups]) =>
    groups.flatMap(({ matcher, hooks: handlers }) =>
      handlers
        .filter((handler) => (handler.args ?? []).some((arg) => arg.startsWith(`${binDir}/`)))
        .map((handler) => ({
          command: [handler.command, ...(handler.args ?? [])].join(" "),
          registration: matcher ? { event, matcher } : { event },
        })),
    ),
  );
}
