import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Context } from "../context.ts";
import { tildify } from "../output/display.ts";
import { type Check, type DoctorFacts, fail, ok } from "./checks.ts";

const SESSION = "carryover-doctor-probe";

/** The least payload each event's hook accepts, for a session no hook has seen (an empty transcript). */
function payload(event: string, cwd: string): Record<string, unknown> {
  const base = { session_id: SESSION, transcript_path: join(cwd, "session.jsonl"), cwd, hook_event_name: event };
  if (event === "SessionStart") return { ...base, source: "startup" };
  if (event === "UserPromptSubmit") return { ...base, prompt: "doctor" };
  if (event === "PreCompact" || event === "PostCompact") return { ...base, trigger: "manual" };
  if (event === "PostToolUse") return { ...base, tool_name: "Read", tool_input: {}, tool_response: {} };
  if (event === "statusLine") return { session_id: SESSION, cwd, model: { id: "claude-opus-5-5" } };
  return base;
}

/**
 * Runs every registration once exactly as Claude Code would start it (its command and arguments; the status
 * line through `/bin/sh -c`), on a payload for a fresh session, with Claude Code's config dir, the project and
 * the temp dir moved into a throwaway dir so nothing of the user's is touched. A hook fails open, so "ran" means
 * exit 0 within its timeout and nothing in its log: no "no node found", no error.
 */
/** The line of a crash that says what went wrong (`SyntaxError: …`), else its last one. */
function stderrGist(stderr: string | undefined): string {
  const lines = (stderr ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const gist = lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1);
  return gist ? `: ${gist}` : "";
}

/**
 * A throwaway dir for one run: in the temp dir, else (a TMPDIR that does not exist or is not writable, as a
 * sandbox's may be outside it) beside the bin dir, which exists whenever there is something to run.
 */
function scratchDir(context: Context): string {
  try {
    return mkdtempSync(join(tmpdir(), "carryover-doctor-"));
  } catch {
    return mkdtempSync(join(dirname(context.binDir), "doctor-"));
  }
}

export function runnableChecks({ hookContext: context, sites }: DoctorFacts): Check[] {
  const seen = new Set<string>();
  const checks: Check[] = [];
  for (const site of sites) {
    const key = `${site.run}\0${site.event}`;
    // A missing executable fails its own check already.
    if (seen.has(key) || !existsSync(join(context.binDir, site.executable))) continue;
    seen.add(key);
    const scratch = scratchDir(context);
    try {
      const cwd = join(scratch, "project");
      mkdirSync(cwd);
      writeFileSync(join(cwd, "session.jsonl"), "");
      const env = {
        ...context.env,
        CLAUDE_CONFIG_DIR: join(scratch, "claude"),
        TMPDIR: scratch,
        CLAUDE_PROJECT_DIR: cwd,
      };
      const [command, args] =
        site.event === "statusLine"
          ? ["/bin/sh", ["-c", JSON.parse(site.run) as string]]
          : (JSON.parse(site.run) as [string, string[]]);
      const result = spawnSync(command, args, {
        cwd,
        env,
        input: JSON.stringify(payload(site.event, cwd)),
        encoding: "utf8",
        timeout: 10_000,
      });
      let log = "";
      try {
        log = readFileSync(join(scratch, "claude", "carryover", "log", "carryover.log"), "utf8")
          .split("\n")
          // An ignored config value is logged on every run; the config check names it, and the hook runs on.
          .filter((line) => line.trim() !== "" && !/^\S+ [a-z-]+: config: /.test(line))
          .join("\n");
      } catch {
        // no log: nothing went wrong
      }
      const what = `${site.executable} on ${site.event} (${tildify(site.settingsPath, context.env)})`;
      // A hook that exits without reading its stdin (nothing to do, a switch off) is fine: EPIPE is not a failure.
      const error = (result.error as NodeJS.ErrnoException | undefined)?.code === "EPIPE" ? undefined : result.error;
      const failure = error
        ? error.message
        : result.status !== 0
          ? `exited ${result.status ?? result.signal}${stderrGist(result.stderr)}`
          : log
            ? log.split("\n").at(-1)!
            : site.event === "statusLine" && result.stdout.trim() === ""
              ? "printed nothing"
              : null;
      checks.push(
        failure === null
          ? ok(`${what} runs as registered`)
          : fail(
              `${what} does not run as registered: ${failure}`,
              `carryover install ${site.executable.replace(/^carryover-/, "")}`,
            ),
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return checks;
}
