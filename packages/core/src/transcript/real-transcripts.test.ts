import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { conversationCollector } from "./conversation.ts";
import type { Activity, TranscriptFacts } from "./facts.ts";
import { plansCollector } from "./plans.ts";
import { scanTranscript, scanTranscriptFor, scanWorkers } from "./scan.ts";
import { workersCollector } from "./workers.ts";

// Expected values written by reading each transcript (test-fixtures/real-transcripts/README.md), not by this code.
const DIR = join(import.meta.dirname, "../../../../test-fixtures/real-transcripts");

interface ExpectedActivity {
  filesChanged: Array<{ path: string; count: number }>;
  commands: Array<{ command: string; runs: number; failures: number }>;
  errors: Array<{ line: number; tool: string; target: string; message: string; resolved: boolean }>;
}

interface Expected {
  transcript: string;
  lastRequest: { line: number; text: string } | null;
  compactions: Array<{
    line: number;
    boundary: boolean;
    trigger: string;
    preTokens: number | null;
    postTokens: number | null;
  }>;
  work: ExpectedActivity & {
    since: "start" | { line: number; trigger: string; preTokens: number | null; postTokens: number | null };
  };
  session?: ExpectedActivity;
  todos: Array<{ content: string; status: string }> | null;
  tasks: Array<{ id: string; subject: string; status: string }>;
  plans: string[];
  workers: Array<{
    line: number;
    kind: string;
    id: string;
    description: string;
    command: string | null;
    state: string;
    background: boolean;
    agentType?: string;
  }>;
}

const cases = readdirSync(DIR)
  .filter((name) => name.endsWith(".expected.json"))
  .map((name) => JSON.parse(readFileSync(join(DIR, name), "utf8")) as Expected);

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1);
const byCommand = (a: { command: string }, b: { command: string }) => (a.command < b.command ? -1 : 1);

function activity(found: Activity) {
  return {
    filesChanged: found.filesChanged.map(({ path, count }) => ({ path, count })).sort(byPath),
    commands: found.commands.map(({ command, runs, failures }) => ({ command, runs, failures })).sort(byCommand),
    errors: found.errors.map(({ line, tool, target, resolved }) => ({ line, tool, target, resolved })),
  };
}

function expectedActivity(expected: ExpectedActivity) {
  return {
    filesChanged: [...expected.filesChanged].sort(byPath),
    commands: [...expected.commands].sort(byCommand),
    errors: expected.errors.map(({ line, tool, target, resolved }) => ({ line, tool, target, resolved })),
  };
}

function expectMessages(found: Activity, expected: ExpectedActivity): void {
  for (const [index, error] of expected.errors.entries()) {
    expect(found.errors[index]?.message, `error at line ${error.line}`).toContain(error.message);
  }
}

describe.each(cases.map((expected) => [expected.transcript, expected] as const))("%s", (name, expected) => {
  let facts: TranscriptFacts;
  const scan = async () => (facts ??= await scanTranscript(join(DIR, name), { lineNumbers: true }));

  it("finds the user's last real request", async () => {
    expect((await scan()).lastUserRequest).toBe(expected.lastRequest?.text ?? null);
  });

  it("knows every compaction, with or without a boundary line", async () => {
    const found = (await scan()).compactions.map(({ line, boundary, trigger, preTokens, postTokens }) => ({
      line,
      boundary,
      trigger,
      preTokens,
      postTokens,
    }));
    expect(found).toEqual(
      expected.compactions.map(({ line, boundary, trigger, preTokens, postTokens }) => ({
        line,
        boundary,
        trigger,
        preTokens,
        postTokens,
      })),
    );
    const since = (await scan()).since.compaction;
    if (expected.work.since === "start") expect(since).toBeNull();
    else expect(since).toMatchObject(expected.work.since);
  });

  it("reads the files, commands and errors since the last compaction, and which errors the session fixed", async () => {
    const { since } = await scan();
    expect(activity(since)).toEqual(expectedActivity(expected.work));
    expectMessages(since, expected.work);
  });

  it("reads them over the whole transcript", async () => {
    const whole = expected.session ?? expected.work;
    expect(activity(await scan())).toEqual(expectedActivity(whole));
    expectMessages(await scan(), whole);
  });

  it("follows the workers the session started (shells, monitors, subagents, crons) to their last state", async () => {
    const found = (await scan()).workers.map(
      ({ line, kind, id, description, command, state, background, agentType }) => ({
        line,
        kind,
        id,
        description,
        command,
        state,
        background,
        ...(agentType !== undefined ? { agentType } : {}),
      }),
    );
    expect(found).toEqual(expected.workers);
  });

  it("keeps the todos, tasks and plans, and finds no carryover activity", async () => {
    const found = await scan();
    expect(found.todos).toEqual(expected.todos);
    expect(found.tasks).toEqual(expected.tasks);
    expect(found.plansWritten).toEqual(expected.plans);
    expect(found.carryoverActivity).toEqual({ fileChanges: 0, commands: 0 });
    expect(found.skipped.badLines).toBe(0);
  });

  // The readers that pick collectors (recovery; carryover-state workers and carryover status) get what the
  // whole scan finds, field for field.
  it("gives recovery's and the workers' partial scans the whole scan's facts", async () => {
    const path = join(DIR, name);
    const whole = await scanTranscript(path);
    const pick = <K extends keyof TranscriptFacts>(facts: Pick<TranscriptFacts, K>, keys: readonly K[]) =>
      Object.fromEntries(keys.map((key) => [key, facts[key]]));
    const recoveryKeys = [
      "lastUserRequest",
      "planMode",
      "compactions",
      "todos",
      "tasks",
      "plansWritten",
      "workers",
    ] as const;
    const recovery = await scanTranscriptFor(path, [conversationCollector, plansCollector, workersCollector]);
    expect(pick(recovery, recoveryKeys)).toEqual(pick(whole, recoveryKeys));
    const workers = await scanWorkers(path);
    expect(pick(workers, ["workers", "compactions"])).toEqual(pick(whole, ["workers", "compactions"]));
  });
});
