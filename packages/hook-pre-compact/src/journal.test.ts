import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type PreCompactJournal, preCompactJournalPath, readPreCompactJournal, writePreCompactJournal } from "./journal.ts";

const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-journal-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const journal = (atMs: number): PreCompactJournal => ({
  trigger: "auto",
  promptId: "p-1",
  atMs,
  facts: {
    filesChanged: [{ path: "/p/a.ts", tools: ["Edit"], count: 2 }],
    commands: [],
    errors: [],
    since: { filesChanged: [{ path: "/p/a.ts", tools: ["Edit"], count: 2 }], commands: [], errors: [], compaction: null },
    subagentFiles: 0,
    carryoverActivity: { fileChanges: 0, commands: 0 },
    todos: null,
    tasks: [],
    plansWritten: [],
    lastUserRequest: "fix it",
    planMode: false,
    compactions: [],
    skipped: { badLines: 0, truncatedTail: false, longLines: 0, headBytes: 0, droppedEntries: 0 },
    bytesRead: 10,
  },
  wrote: { changesFile: "/p/CHANGES_SESSION.md", snapshot: null, memoryTopic: null },
});

it("keeps the latest journal in the session dir", () => {
  expect(readPreCompactJournal({ HOME: home }, SESSION)).toBeNull();
  writePreCompactJournal({ HOME: home }, SESSION, journal(1));
  writePreCompactJournal({ HOME: home }, SESSION, journal(2));
  expect(readPreCompactJournal({ HOME: home }, SESSION)).toEqual(journal(2));
  expect(preCompactJournalPath({ HOME: home }, SESSION)).toBe(join(home, ".claude/carryover/sessions", SESSION, "pre-compact.json"));
});

it("reads a torn or foreign file as none", () => {
  writePreCompactJournal({ HOME: home }, SESSION, journal(1));
  writeFileSync(preCompactJournalPath({ HOME: home }, SESSION), "{torn");
  expect(readPreCompactJournal({ HOME: home }, SESSION)).toBeNull();
  writeFileSync(preCompactJournalPath({ HOME: home }, SESSION), "[1,2]");
  expect(readPreCompactJournal({ HOME: home }, SESSION)).toBeNull();
});
