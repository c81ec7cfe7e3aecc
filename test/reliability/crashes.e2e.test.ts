// SIGKILL at every write path, from outside: the built writer runs in a child that is killed at a
// random instant of its run, many times; the file it writes must then be the old one or the new one,
// never torn or missing. And a torn last line in the JSONL ledger must not cost the next entry.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  appendLedger,
  compactStatePath,
  isUnfilledState,
  ledgerPath,
  loadReading,
  openSession,
  readLedger,
  recordReading,
  renderState,
  verifyState,
} from "../../packages/core/src/index.ts";
import { recordFigures } from "./figures.ts";
import { CARRYOVER_CLI, hookExecutable, STATE_CLI } from "./hooks.ts";
import { capturedPayloads } from "./payloads.ts";
import { createSandbox, type Sandbox } from "./sandbox.ts";
import { SESSIONS, seedFiles } from "./seed.ts";
import { type ProcessRun, runFile } from "./spawn.ts";

const KILLS_PER_WRITER = 25;
const SEED = Number(process.env.CARRYOVER_FUZZ_SEED ?? 20_261_129);
const SESSION = SESSIONS[0]!;
let sandbox: Sandbox;

beforeAll(() => {
  sandbox = createSandbox("crashes");
  seedFiles(sandbox);
});
afterAll(() => sandbox.cleanup());

/** When to kill: after a delay, or at the nth change the writer makes in the dir it writes. */
type Kill = { afterMs: number } | { atChange: number };

interface Writer {
  /** The dir the file is written in: its changes (temp file, rename) time the kills that land inside the write. */
  dir: string;
  /** Puts the old file (and whatever the writer needs) in place. */
  reset(): void;
  run(kill: Kill): Promise<ProcessRun>;
  /** "old", "new", or what is wrong with the file. */
  judge(): string;
}

/**
 * Kills the writer repeatedly: half the time at an instant in the second half of its run (measured first;
 * node's start-up fills the first half), half the time at its 1st to 4th change in the dir it writes,
 * which lands between a temp file and its rename. Every outcome must be the old file or the new one.
 */
async function killRepeatedly(name: string, writer: Writer): Promise<Record<string, number>> {
  writer.reset();
  const full = await writer.run({ afterMs: 30_000 });
  expect(full.code, full.stderr).toBe(0);
  expect(writer.judge()).toBe("new");
  const runMs = Math.ceil(full.durationMs);
  const kills = fc.sample(
    fc.oneof(
      fc.integer({ min: Math.floor(runMs * 0.5), max: Math.ceil(runMs * 1.2) }).map((afterMs): Kill => ({ afterMs })),
      fc.integer({ min: 1, max: 4 }).map((atChange): Kill => ({ atChange })),
    ),
    { seed: SEED, numRuns: KILLS_PER_WRITER },
  );
  const outcomes: Record<string, number> = { old: 0, new: 0, killed: 0 };
  const bad: string[] = [];
  for (const kill of kills) {
    writer.reset();
    const run = await writer.run(kill);
    if (run.hung) outcomes.killed! += 1;
    const verdict = writer.judge();
    if (verdict === "old" || verdict === "new") outcomes[verdict]! += 1;
    else bad.push(`killed ${JSON.stringify(kill)}: ${verdict}`);
  }
  recordFigures(`crash.${name}`, { kills: KILLS_PER_WRITER, runMs, ...outcomes, torn: bad.length });
  expect(bad).toEqual([]);
  return outcomes;
}

/** The spawn options a kill stands for. */
function killOptions(kill: Kill, dir: string): { deadlineMs: number; killAtChange?: { dir: string; count: number } } {
  return "afterMs" in kill
    ? { deadlineMs: kill.afterMs }
    : { deadlineMs: 30_000, killAtChange: { dir, count: kill.atChange } };
}

describe("SIGKILL while writing", () => {
  test("carryover-state init --force over a filled state: the file is the old one or the new template", async () => {
    const path = compactStatePath(sandbox.env, SESSION);
    const old = renderState([`Session: ${SESSION}`], {
      "## Active Plan": "the old plan",
      "## Session Decisions": "keep the API",
    });
    const outcomes = await killRepeatedly("state-init", {
      dir: dirname(path),
      reset() {
        rmSync(dirname(path), { recursive: true, force: true });
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        writeFileSync(path, old, { mode: 0o600 });
      },
      run: (kill) =>
        runFile(STATE_CLI, {
          env: sandbox.env,
          cwd: sandbox.project,
          args: ["init", "--force", "--session", SESSION],
          stdin: "",
          ...killOptions(kill, dirname(path)),
        }),
      judge() {
        if (!existsSync(path)) return "state file missing";
        const text = readFileSync(path, "utf8");
        if (text === old) return "old";
        return verifyState(text).ok && isUnfilledState(text) ? "new" : `torn: ${JSON.stringify(text.slice(0, 80))}`;
      },
    });
    expect(outcomes.old! + outcomes.new!).toBe(KILLS_PER_WRITER);
  }, 120_000);

  test("post-compact appending to the ledger, or rewriting it past its cap: it is the old one or the new", async () => {
    const executable = hookExecutable("post-compact");
    const path = ledgerPath(openSession(sandbox.env, SESSION));
    const summary = `NEW ${"s".repeat(40_000)}`;
    const payload = {
      ...capturedPayloads("PostCompact", sandbox)[0]!,
      session_id: SESSION,
      prompt_id: "crash",
      compact_summary: `<summary>${summary}</summary>`,
    };
    // A cap of 3 over 3 entries: every run drops the oldest and rewrites the whole file.
    const env = { ...sandbox.env, CARRYOVER_POST_COMPACT_LEDGER_MAX_ENTRIES: "3" };
    const olds = ["FIRST", "SECOND", "THIRD"];
    const sessionDir = join(sandbox.home, ".claude", "carryover", "sessions", SESSION);
    const outcomes = await killRepeatedly("ledger-append", {
      dir: sessionDir,
      reset() {
        rmSync(sessionDir, { recursive: true, force: true });
        for (const [index, old] of olds.entries()) {
          appendLedger(
            openSession(sandbox.env, SESSION),
            { atMs: index, trigger: "auto", promptId: old, summary: old },
            50,
          );
        }
      },
      run: (kill) =>
        runFile(executable, {
          env,
          cwd: sandbox.project,
          stdin: JSON.stringify(payload),
          ...killOptions(kill, sessionDir),
        }),
      judge() {
        const lines = readFileSync(path, "utf8").split("\n");
        if (lines.pop() !== "") return "the last line is torn";
        const summaries = readLedger(openSession(sandbox.env, SESSION)).map((entry) => entry.summary);
        if (summaries.length !== lines.length) return `${lines.length - summaries.length} unreadable lines`;
        if (JSON.stringify(summaries) === JSON.stringify(olds)) return "old";
        return JSON.stringify(summaries) === JSON.stringify(["SECOND", "THIRD", summary])
          ? "new"
          : `neither: ${summaries.map((text) => text.slice(0, 10)).join(", ")}`;
      },
    });
    expect(outcomes.old! + outcomes.new!).toBe(KILLS_PER_WRITER);
  }, 120_000);

  test("the status line writing a reading in place over the old one: it is the old one or the new one", async () => {
    const executable = hookExecutable("statusline");
    const session = SESSIONS[2]!;
    const sessionDir = openSession(sandbox.env, session).dir;
    const old = {
      source: "statusline" as const,
      contextTokens: 123_456,
      modelWindowTokens: 1_000_000,
      autoCompactTokens: 967_000,
      model: "claude-opus-5-5-with-a-longer-name",
      atMs: 1,
    };
    const stdin = JSON.stringify({ ...capturedPayloads("StatusLine", sandbox)[0]!, session_id: session });
    const outcomes = await killRepeatedly("reading-overwrite", {
      dir: sessionDir,
      reset() {
        rmSync(sessionDir, { recursive: true, force: true });
        recordReading(openSession(sandbox.env, session), old);
      },
      run: (kill) =>
        runFile(executable, { env: sandbox.env, cwd: sandbox.project, stdin, ...killOptions(kill, sessionDir) }),
      judge() {
        const reading = loadReading(openSession(sandbox.env, session));
        if (reading === null)
          return `unreadable: ${JSON.stringify(readFileSync(join(sessionDir, "usage.json"), "utf8").slice(0, 80))}`;
        if (reading.contextTokens === old.contextTokens && reading.model === old.model) return "old";
        return reading.source === "statusline" && reading.model === "claude-opus-5-5" && reading.atMs > 1
          ? "new"
          : `neither: ${JSON.stringify(reading)}`;
      },
    });
    expect(outcomes.old! + outcomes.new!).toBe(KILLS_PER_WRITER);
  }, 120_000);

  test("install --all over a user's settings.json: the old file or the installed one; the next completes", async () => {
    const home = join(sandbox.root, "install-home");
    const settings = join(home, ".claude", "settings.json");
    const original =
      '{\n  "model": "opus",\n  "statusLine": {"type": "command", "command": "~/bin/line.sh"},\n' +
      '  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "~/bin/notify.sh"}]}]}\n}\n';
    const env = { HOME: home, PATH: process.env.PATH ?? "", TMPDIR: sandbox.tmp };
    const install = (kill: Kill) =>
      runFile(CARRYOVER_CLI, {
        env,
        cwd: sandbox.project,
        args: ["install", "--all"],
        stdin: "",
        ...killOptions(kill, join(home, ".claude")),
      });
    const reset = () => {
      rmSync(home, { recursive: true, force: true });
      mkdirSync(join(home, ".claude"), { recursive: true });
      writeFileSync(settings, original);
    };
    reset();
    expect((await install({ afterMs: 30_000 })).code).toBe(0);
    const installed = readFileSync(settings, "utf8");
    let rerunsCompleted = 0;
    await killRepeatedly("settings-write", {
      dir: join(home, ".claude"),
      reset,
      run: async (kill) => {
        const run = await install(kill);
        // Keep what the kill left, then check that a plain rerun still gets to the end.
        cpSync(settings, `${settings}.after-kill`);
        const rerun = await install({ afterMs: 30_000 });
        if (rerun.code === 0 && readFileSync(settings, "utf8") === installed) rerunsCompleted += 1;
        cpSync(`${settings}.after-kill`, settings);
        return run;
      },
      judge() {
        const text = readFileSync(settings, "utf8");
        return text === original ? "old" : text === installed ? "new" : `torn: ${JSON.stringify(text.slice(0, 80))}`;
      },
    });
    // The measuring run goes through `run` too.
    expect(rerunsCompleted).toBe(KILLS_PER_WRITER + 1);
    const litter = readdirSync(join(home, ".claude")).filter((name) => name.endsWith(".tmp"));
    expect(litter).toEqual([]);
  }, 180_000);
});

describe("a torn last line in the JSONL ledger", () => {
  test("is skipped by every reader, and the next PostCompact's entry is kept whole", async () => {
    const session = SESSIONS[1]!;
    appendLedger(openSession(sandbox.env, session), { atMs: 1, trigger: "auto", promptId: "one", summary: "ONE" }, 50);
    writeFileSync(
      ledgerPath(openSession(sandbox.env, session)),
      `${readFileSync(ledgerPath(openSession(sandbox.env, session)), "utf8")}{"atMs":2,"trigger":"auto","summary":"TO`,
    );
    const common = {
      session_id: session,
      transcript_path: join(sandbox.transcriptsDir, `${session}.jsonl`),
      cwd: sandbox.project,
    };
    const run = (name: string, event: string, fields: Record<string, unknown>) =>
      runFile(hookExecutable(name), {
        env: sandbox.env,
        cwd: sandbox.project,
        stdin: JSON.stringify({ ...capturedPayloads(event, sandbox)[0]!, ...common, ...fields }),
        deadlineMs: 30_000,
      });
    const steering = await run("pre-compact", "PreCompact", { prompt_id: "three" });
    expect(steering.code).toBe(0);
    expect(steering.stdout).toContain("ONE");
    expect(
      (await run("post-compact", "PostCompact", { prompt_id: "three", compact_summary: "<summary>THREE</summary>" }))
        .code,
    ).toBe(0);
    expect(readLedger(openSession(sandbox.env, session)).map((entry) => entry.summary)).toEqual(["ONE", "THREE"]);
    const recovery = await run("recovery", "SessionStart", { source: "compact", prompt_id: "three" });
    expect(recovery.stdout).toContain("carryover recovery");
    recordFigures("crash.torn-ledger-line", {
      readersOk: 3,
      entriesKept: readLedger(openSession(sandbox.env, session)).length,
    });
  }, 60_000);
});
