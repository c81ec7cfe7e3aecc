import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE = join(FIXTURES_DIR, "probe-hook", "src", "bin.ts");
const PROBE_HOOK_PATH = join(FIXTURES_DIR, "probe-hook", "dist", "probe-hook.cjs");

/** A hook payload (or status line input) as the probe logged it. */
export type ProbePayload = Record<string, unknown> & { hook_event_name?: string };

/**
 * Builds the probe hook when dist is missing or older than its source (so `vitest run` works without
 * `pnpm build`), into a temp file renamed into place: parallel test files never see a half-written bundle.
 */
export function ensureProbeHook(): string {
  if (existsSync(PROBE_HOOK_PATH) && statSync(PROBE_HOOK_PATH).mtimeMs >= statSync(SOURCE).mtimeMs)
    return PROBE_HOOK_PATH;
  const temp = `${PROBE_HOOK_PATH}.${process.pid}.tmp.cjs`;
  const bin = join(FIXTURES_DIR, "node_modules", ".bin", "carryover-build");
  execFileSync(bin, [SOURCE, temp], { cwd: FIXTURES_DIR, stdio: "pipe" });
  renameSync(temp, PROBE_HOOK_PATH);
  rmSync(`${temp}.meta.json`, { force: true });
  return PROBE_HOOK_PATH;
}

/** A settings.json hook entry running the probe in exec form (2.1.332 accepts `args`: no shell). */
export function probeHook(logPath?: string, timeoutSeconds = 10): Record<string, unknown> {
  return {
    type: "command",
    command: ensureProbeHook(),
    args: logPath === undefined ? [] : [logPath],
    timeout: timeoutSeconds,
  };
}

/** settings.json `hooks` registering the probe for each event (matcher omitted: every source/trigger). */
export function probeHooks(events: string[], logPath?: string): Record<string, unknown> {
  return Object.fromEntries(events.map((event) => [event, [{ hooks: [probeHook(logPath)] }]]));
}

/** settings.json `statusLine` running the probe in status line mode (`statusLine` has no exec form). */
export function probeStatusLine(logPath?: string): Record<string, unknown> {
  const command = [ensureProbeHook(), "statusline", ...(logPath === undefined ? [] : [logPath])]
    .map(shellQuote)
    .join(" ");
  return { type: "command", command };
}

export function readProbeLog(logPath: string): ProbePayload[] {
  if (!existsSync(logPath)) return [];
  return readFileSync(logPath, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as ProbePayload);
}

/** `Event` or `Event:source|trigger|reason` per logged hook call, in order, for sequence assertions. */
export function probeEvents(logPath: string): string[] {
  return readProbeLog(logPath)
    .filter((payload) => typeof payload.hook_event_name === "string")
    .map((payload) => {
      const detail = payload.source ?? payload.trigger ?? payload.reason;
      return typeof detail === "string" ? `${payload.hook_event_name}:${detail}` : payload.hook_event_name!;
    });
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
