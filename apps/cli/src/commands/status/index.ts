import { resolve } from "node:path";
import { type ParsedArgs, stringFlag } from "../../args.ts";
import type { Command } from "../../command.ts";
import { usageError } from "../../errors.ts";
import type { Io } from "../../io.ts";
import { palette } from "../../output/color.ts";
import { json, tildify } from "../../output/display.ts";
import { hookEnv } from "../../settings/hook-env.ts";
import { newestSession, sessionFacts } from "./_session-facts.ts";

const tokens = (count: number) => count.toLocaleString("en-US");

function ago(nowMs: number, atMs: number | null): string {
  if (atMs === null) return "at an unknown time";
  const seconds = Math.max(0, Math.round((nowMs - atMs) / 1000));
  if (seconds < 90) return `${seconds} s ago`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 48 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} days ago`;
}

async function run(args: ParsedArgs, io: Io): Promise<number> {
  const colors = palette(io);
  const projectDir = resolve(io.cwd, stringFlag(args.flags.project) ?? ".");
  const named = args.positionals[0] ?? stringFlag(args.flags.session);
  if (args.positionals[0] !== undefined && args.flags.session !== undefined) throw usageError("name the session once");
  // The config the hooks run with: settings.json `env` may move the levels or the state dir.
  const { env } = hookEnv(io.env, projectDir, io.managedSettingsDir);
  const sessionId = named ?? newestSession(env, projectDir);
  if (!sessionId) {
    if (args.flags.json) io.out(json({ session: null }));
    else
      io.out(
        `no session yet: carryover has no state and Claude Code no transcript of one in ${projectDir}; ` +
          "it appears after the first prompt\n",
      );
    return 0;
  }
  const facts = await sessionFacts(env, sessionId, projectDir, io.nowMs);
  if (args.flags.json) {
    io.out(json(facts));
    return 0;
  }
  const label = (text: string) => colors.bold(text.padEnd(8));
  io.out(`${label("session")} ${sessionId}${named ? "" : colors.dim(" (the newest)")}\n`);
  const reading = facts.reading;
  if (!reading)
    io.out(`${label("usage")} ${colors.dim("no reading yet (the statusline records one; the transcript has none)")}\n`);
  else {
    const limit =
      reading.autoCompactTokens === null
        ? `${tokens(reading.modelWindowTokens)}-token window (auto-compact off)`
        : `${tokens(reading.autoCompactTokens)} at which Claude Code auto-compacts`;
    const level =
      reading.level === null
        ? colors.dim(`below ${facts.levels[0] ?? "every"}%`)
        : colors.yellow(`level ${reading.level}% reached`);
    const stale = reading.fresh ? "" : colors.dim(" (stale)");
    const age = `${reading.source} reading ${ago(io.nowMs, reading.atMs)}${stale}`;
    io.out(
      `${label("usage")} ${reading.levelPercent}% · ${tokens(reading.contextTokens)} of ${limit} · ${level} · ${age}\n`,
    );
  }
  const reminders = facts.reminders.map((reminder) =>
    reminder.state === "due"
      ? colors.yellow(
          `due at ${reminder.levelPercent}% (crossed ${ago(io.nowMs, reminder.atMs)}): ` +
            "the next prompt asks for /compact-prep",
        )
      : `given at ${reminder.levelPercent}% (${ago(io.nowMs, reminder.atMs)})`,
  );
  io.out(`${label("reminder")} ${reminders.length > 0 ? reminders.join("; ") : colors.dim("none yet")}\n`);
  if (facts.recovery) {
    const recovery = facts.recovery;
    const line =
      recovery.state === "due"
        ? colors.yellow(
            `due: compacted ${ago(io.nowMs, recovery.atMs)}; the next prompt re-reads plan, state and tasks`,
          )
        : `given after the last compaction (${ago(io.nowMs, recovery.atMs)})`;
    io.out(`${label("recovery")} ${line}\n`);
  }
  const state = facts.stateFile;
  const standing = {
    "saved since the last compaction": colors.green("fresh: saved since the last compaction"),
    "carried across the last compaction": colors.green(
      "fresh: saved before the last compaction, which it carried across",
    ),
    stale: colors.yellow("stale: not saved since the compaction before the last"),
    "no compaction yet": "no compaction yet",
  }[state.freshness];
  const headers = state.headersOk
    ? "headers ok"
    : colors.red(`headers missing or out of order: ${state.missingHeaders.join(", ")}`);
  const stateLine = !state.exists
    ? colors.dim(`none at ${tildify(state.path, io.env)}`)
    : `${tildify(state.path, io.env)} · ${standing} (saved ${ago(io.nowMs, state.savedAtMs)})` +
      ` · ${headers}${state.mechanical ? " · mechanical snapshot" : ""}`;
  io.out(`${label("state")} ${stateLine}\n`);
  for (const [index, worker] of facts.workers.entries()) {
    const live = worker.state === "running" || worker.state === "scheduled";
    const what = `${worker.kind} ${worker.id}${worker.description ? ` “${worker.description}”` : ""}`;
    const command = worker.command ? colors.dim(` ${worker.command}`) : "";
    const state = live ? colors.yellow(worker.state) : worker.state;
    io.out(`${label(index === 0 ? "workers" : "")} ${what} · ${state}${command}\n`);
  }
  if (facts.snapshot.exists) io.out(`${label("")} snapshot ${tildify(facts.snapshot.path, io.env)}\n`);
  const compactions = facts.ledger.length;
  const ledger =
    compactions === 0 ? colors.dim("no compaction yet") : `${compactions} compaction${compactions === 1 ? "" : "s"}`;
  io.out(`${label("ledger")} ${ledger}\n`);
  for (const entry of facts.ledger.slice(-3)) {
    const summary = entry.summary.replace(/\s+/g, " ").slice(0, 100);
    io.out(
      colors.dim(
        `         ${entry.trigger} ${ago(io.nowMs, entry.atMs)}: ${summary}${entry.summary.length > 100 ? "…" : ""}\n`,
      ),
    );
  }
  return 0;
}

export const statusCommand: Command = {
  name: "status",
  summary: "a session's usage reading and level, pending markers, state file, workers, compaction ledger",
  usage: "carryover status [SESSION_ID | --session ID] [--json] [--project DIR]",
  help: `Shows what carryover knows about a session (the one whose state changed last, unless named): its usage
reading and level, the reminder and recovery due or given, the state file, the workers its transcript records
(background shells, monitors, subagents and crons still at work, and those ended since the last compaction) and
the compactions. Reads only.`,
  run,
};
