import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  appendLedger,
  defaultStateDir,
  openSession,
  projectSlug,
  recordCompaction,
  recordReading,
  recordRecoveryDelivered,
  stampCompactState,
  stateTemplate,
  writeMarker,
} from "@carryover/core";
import { afterEach, beforeEach, expect, it } from "vitest";
import { callLine, promptLine, resultLine, writeTranscript } from "../../../../../test-fixtures/transcripts/lines.ts";
import { createKit, type Kit } from "../../../test/kit.ts";

const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
const NOW = Date.parse("2026-11-29T12:00:00Z");
let kit: Kit;
beforeEach(() => {
  kit = createKit();
});
afterEach(() => kit.cleanup());

function seed(): string {
  const env = { HOME: kit.home, TMPDIR: join(kit.root, "tmp") };
  recordReading(openSession(env, SESSION), {
    source: "statusline",
    contextTokens: 600_000,
    modelWindowTokens: 1_000_000,
    autoCompactTokens: 967_000,
    model: "claude-opus-5-5",
    atMs: NOW - 60_000,
  });
  writeMarker(openSession(env, SESSION), "level-60", { level: 60 }, NOW - 120_000);
  appendLedger(
    openSession(env, SESSION),
    { atMs: NOW - 3_600_000, trigger: "auto", summary: "MOCK SUMMARY 4: the user asked for things" },
    50,
  );
  const stateDir = defaultStateDir(env);
  mkdirSync(stateDir, { recursive: true });
  const statePath = join(stateDir, `${SESSION}.md`);
  writeFileSync(statePath, stateTemplate(SESSION, NOW));
  utimesSync(statePath, (NOW - 300_000) / 1000, (NOW - 300_000) / 1000);
  return statePath;
}

const env = () => ({ HOME: kit.home, TMPDIR: join(kit.root, "tmp") });
const touch = (path: string, atMs: number) => utimesSync(path, atMs / 1000, atMs / 1000);

it("shows the newest session's reading and level, the reminder due, the state file and the ledger", async () => {
  const statePath = seed();
  const result = await kit.run("status");
  expect(result.code).toBe(0);
  expect(result.out).toContain(`session  ${SESSION} (the newest)\n`);
  expect(result.out).toContain(
    "usage    62% · 600,000 of 967,000 at which Claude Code auto-compacts · level 60% reached · " +
      "statusline reading 60 s ago\n",
  );
  expect(result.out).toContain("reminder due at 60% (crossed 2 min ago): the next prompt asks for /compact-prep\n");
  expect(result.out).toContain(
    `state    ${statePath} · fresh: saved since the last compaction (saved 5 min ago) · headers ok\n`,
  );
  expect(result.out).toContain(
    "ledger   1 compaction\n         auto 60 min ago: MOCK SUMMARY 4: the user asked for things\n",
  );
});

it("says what the hooks' markers mean, never their names: a reminder given, recovery due, then given", async () => {
  seed();
  writeMarker(openSession(env(), SESSION), "announced-85", { percent: 86 }, NOW - 30_000);
  writeMarker(openSession(env(), SESSION), "compacted", { trigger: "auto" }, NOW - 20_000);
  writeMarker(openSession(env(), SESSION), "recovery-claim-4d6efe47f07dee50", { promptId: "p" }, NOW - 10_000);
  const due = (await kit.run("status", SESSION)).out;
  expect(due).toContain(
    "reminder due at 60% (crossed 2 min ago): the next prompt asks for /compact-prep; given at 85% (30 s ago)\n",
  );
  expect(due).toContain("recovery due: compacted 20 s ago; the next prompt re-reads plan, state and tasks\n");
  expect(due).not.toMatch(/claim|announced|level-60|compacted\b.*marker/);
  recordRecoveryDelivered(openSession(env(), SESSION), "p", NOW - 5_000);
  expect((await kit.run("status", SESSION)).out).toContain("recovery given after the last compaction (5 s ago)\n");
});

it("a state saved just before /compact is fresh; one not saved since the compaction before is stale", async () => {
  const statePath = seed();
  touch(statePath, NOW - 3_700_000);
  const carried = JSON.parse((await kit.run("status", SESSION, "--json")).out);
  expect(carried.stateFile).toMatchObject({ freshness: "carried across the last compaction", headersOk: true });
  expect((await kit.run("status", SESSION)).out).toContain(
    "fresh: saved before the last compaction, which it carried across",
  );
  appendLedger(openSession(env(), SESSION), { atMs: NOW - 600_000, trigger: "manual", summary: "MOCK SUMMARY 5" }, 50);
  expect((await kit.run("status", SESSION)).out).toContain(
    "stale: not saved since the compaction before the last (saved 62 min ago)",
  );
});

it("orders a stamped state by the compaction count, as the hooks do: a compaction recorded 10 min fast", async () => {
  seed();
  recordCompaction(openSession(env(), SESSION), "p1", NOW + 600_000);
  appendLedger(openSession(env(), SESSION), { atMs: NOW + 600_000, trigger: "auto", summary: "MOCK SUMMARY 5" }, 50);
  stampCompactState(env(), SESSION);
  expect(JSON.parse((await kit.run("status", SESSION, "--json")).out).stateFile.freshness).toBe(
    "saved since the last compaction",
  );
  recordCompaction(openSession(env(), SESSION), "p2", NOW - 600_000);
  recordCompaction(openSession(env(), SESSION), "p3", NOW - 300_000);
  expect((await kit.run("status", SESSION)).out).toContain("stale: not saved since the compaction before the last");
});

it("--json carries the same facts", async () => {
  const statePath = seed();
  const facts = JSON.parse((await kit.run("status", "--session", SESSION, "--json")).out);
  expect(facts).toMatchObject({
    sessionId: SESSION,
    levels: [60, 85],
    reading: { contextTokens: 600_000, level: 60, fresh: true, levelPercent: 62 },
    reminders: [{ levelPercent: 60, state: "due", atMs: NOW - 120_000 }],
    recovery: null,
    stateFile: { path: statePath, exists: true, freshness: "saved since the last compaction", headersOk: true },
    ledger: [{ trigger: "auto", summary: "MOCK SUMMARY 4: the user asked for things" }],
  });
});

it("no session yet: says so; an unknown or bad session id and extra arguments are refused", async () => {
  expect((await kit.run("status")).out).toBe(
    `no session yet: carryover has no state and Claude Code no transcript of one in ${kit.project}; ` +
      "it appears after the first prompt\n",
  );
  expect(await kit.run("status", "0b0e0b0e-0000-4000-8000-000000000000")).toEqual({
    code: 1,
    out: "",
    err:
      "carryover: no session 0b0e0b0e-0000-4000-8000-000000000000: " +
      "carryover has no state for it, and no transcript of it is under ~/.claude/projects; " +
      "`carryover status` shows the newest\n",
  });
  expect(await kit.run("status", "--session", "../etc")).toMatchObject({
    code: 2,
    err: 'carryover: "../etc" is not a session id\n',
  });
  expect((await kit.run("status", SESSION, "extra")).err).toBe(
    'carryover: status takes at most 1; got "extra" too ' +
      "(usage: carryover status [SESSION_ID | --session ID] [--json] [--project DIR])\n",
  );
});

it("without a status line to record a reading, the newest session is this project's newest transcript", async () => {
  // What print mode or `--statusline skip` leaves after a first prompt: Claude Code's transcript, no carryover state.
  const transcripts = join(kit.home, ".claude/projects", projectSlug(kit.project));
  mkdirSync(transcripts, { recursive: true });
  const older = "11111111-1111-4111-8111-111111111111";
  writeFileSync(join(transcripts, `${older}.jsonl`), "");
  touch(join(transcripts, `${older}.jsonl`), NOW - 60_000);
  writeFileSync(join(transcripts, `${SESSION}.jsonl`), "");
  touch(join(transcripts, `${SESSION}.jsonl`), NOW - 1_000);
  const result = await kit.run("status");
  expect(result).toMatchObject({ code: 0, err: "" });
  expect(result.out).toContain(`session  ${SESSION} (the newest)\n`);
  expect(result.out).toContain("ledger   no compaction yet\n");
  // A session carryover recorded state for since is newer still.
  writeMarker(openSession(env(), older), "level-60", { level: 60 }, NOW);
  expect((await kit.run("status")).out).toContain(`session  ${older} (the newest)\n`);
});

it("lists the workers its transcript records: those still at work, those ended since its last compaction", async () => {
  seed();
  const dir = join(kit.home, ".claude/projects/-p");
  mkdirSync(dir, { recursive: true });
  writeTranscript(join(dir, `${SESSION}.jsonl`), [
    promptLine("serve it"),
    callLine("c1", "Bash", { command: "pnpm dev", description: "dev server", run_in_background: true }),
    resultLine(
      "c1",
      "Command running in background with ID: b1. Output is being written to: /tmp/t/b1.output.",
      false,
      {
        backgroundTaskId: "b1",
      },
    ),
    callLine("c2", "Agent", { description: "review", prompt: "x", subagent_type: "Explore" }),
    resultLine("c2", "looks fine", false, { status: "completed", agentId: "a2" }),
  ]);
  const result = await kit.run("status");
  expect(result.out).toContain(
    "workers  shell b1 “dev server” · running pnpm dev\n         agent a2 “review” · completed\n",
  );
  const { workers } = JSON.parse((await kit.run("status", "--json")).out);
  expect(workers).toEqual([
    { kind: "shell", id: "b1", description: "dev server", command: "pnpm dev", state: "running" },
    { kind: "agent", id: "a2", description: "review", command: null, state: "completed" },
  ]);
});
