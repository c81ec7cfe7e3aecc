import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendLedger, recordReading, stateTemplate, writeMarker } from "@carryover/core";
import { afterEach, beforeEach, expect, it } from "vitest";
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
  recordReading(env, SESSION, { source: "statusline", contextTokens: 600_000, modelWindowTokens: 1_000_000, autoCompactTokens: 967_000, model: "claude-opus-5-5", atMs: NOW - 60_000 });
  writeMarker(env, SESSION, "level-60", { level: 60 }, NOW - 120_000);
  appendLedger(env, SESSION, { atMs: NOW - 3_600_000, trigger: "auto", summary: "MOCK SUMMARY 4: the user asked for things" }, 50);
  const stateDir = join(kit.root, "tmp/claude-compact-state");
  mkdirSync(stateDir, { recursive: true });
  const statePath = join(stateDir, `${SESSION}.md`);
  writeFileSync(statePath, stateTemplate(SESSION, NOW));
  utimesSync(statePath, (NOW - 300_000) / 1000, (NOW - 300_000) / 1000);
  return statePath;
}

it("shows the newest session's reading and level, markers, state file and ledger", async () => {
  const statePath = seed();
  const result = await kit.run("status");
  expect(result.code).toBe(0);
  expect(result.out).toContain(`session  ${SESSION} (the newest)\n`);
  expect(result.out).toContain("usage    62% · 600,000 of 967,000 at which Claude Code auto-compacts · level 60% reached · statusline reading 60 s ago\n");
  expect(result.out).toContain("markers  level-60 (2 min ago)\n");
  expect(result.out).toContain(`state    ${statePath} · fresh (saved 5 min ago) · headers ok\n`);
  expect(result.out).toContain("ledger   1 compaction\n         auto 60 min ago: MOCK SUMMARY 4: the user asked for things\n");
});

it("--json carries the same facts; a state file older than the last compaction is stale", async () => {
  const statePath = seed();
  utimesSync(statePath, (NOW - 7_200_000) / 1000, (NOW - 7_200_000) / 1000);
  const facts = JSON.parse((await kit.run("status", "--session", SESSION, "--json")).out);
  expect(facts).toMatchObject({
    sessionId: SESSION,
    levels: [60, 85],
    reading: { contextTokens: 600_000, level: 60, fresh: true, levelPercent: 62 },
    markers: [{ name: "level-60", createdAtMs: NOW - 120_000 }],
    stateFile: { path: statePath, exists: true, fresh: false, headersOk: true },
    ledger: [{ trigger: "auto", summary: "MOCK SUMMARY 4: the user asked for things" }],
  });
});

it("no session yet: says so; a bad --session is refused", async () => {
  expect((await kit.run("status")).out).toBe("no session has carryover state yet: it appears after the first prompt with carryover's hooks installed\n");
  expect((await kit.run("status", "--session", "../etc")).err).toBe('carryover: --session: "../etc" is not a session id\n');
});
