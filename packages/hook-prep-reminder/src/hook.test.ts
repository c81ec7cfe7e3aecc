import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type HookJsonOutput,
  hasMarker,
  listMarkers,
  loadConfig,
  openSession,
  type ProbeContext,
  recordReading,
  type UserPromptSubmitInput,
  writeMarker,
} from "@carryover/core";
import { payload, payloadPath } from "@carryover/test-fixtures/payloads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keys } from "./config.ts";
import { hook } from "./hook.ts";

const SESSION = "7618a028-19c7-4e6b-af14-1fdfaa838f89";
// CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000 puts the auto-compact point at 67,000 tokens (2.1.332).
const SMALL_WINDOW = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" };
let home: string;
let transcript: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-prep-reminder-"));
  transcript = join(home, "transcript.jsonl");
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** The captured transcript, then one more main-chain response reporting `tokens` input tokens. */
function transcriptEndingAt(tokens: number): void {
  const sample = readFileSync(payloadPath("transcript-sample.jsonl"), "utf8");
  const response = JSON.parse(
    sample
      .split("\n")
      .filter((line) => line.includes('"type":"assistant"'))
      .at(-1)!,
  );
  response.message.usage = {
    ...response.message.usage,
    input_tokens: tokens,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
  writeFileSync(transcript, `${sample.trimEnd()}\n${JSON.stringify(response)}\n`);
}

function compactInTranscript(): void {
  appendFileSync(transcript, `${JSON.stringify(payload("transcript-line.compact-boundary.auto"))}\n`);
}

function prompt(text = "go on"): UserPromptSubmitInput {
  return {
    ...payload("user-prompt-submit"),
    session_id: SESSION,
    transcript_path: transcript,
    cwd: home,
    prompt: text,
  };
}

/** The hook's probe, as the runtime calls it, at `nowMs`. */
function probe(nowMs = 1_000_000, env: Record<string, string> = { HOME: home }) {
  const input = prompt();
  const context: ProbeContext = {
    name: "prep-reminder",
    payload: input,
    env,
    nowMs,
    projectDir: home,
    session: openSession(env, SESSION),
  };
  return hook.probe!(context);
}

/** The probe, then run with what it found, as the runtime does them, at `nowMs`. */
async function remind(
  extraEnv: Record<string, string> = {},
  text?: string,
  nowMs = 1_000_000,
): Promise<HookJsonOutput | null> {
  const env = { HOME: home, ...extraEnv };
  const found = probe(nowMs, env);
  if (found === null) return null;
  const config = loadConfig("prep-reminder", keys, env, home);
  const context = {
    input: prompt(text),
    event: "UserPromptSubmit" as const,
    env,
    nowMs,
    config,
    projectDir: home,
    session: openSession(env, SESSION),
    log: () => {},
  };
  return (await hook.run(context, found)) as HookJsonOutput | null;
}

/** A statusline reading of `tokens` against the 1M window (auto-compact point 967,000), `ageMs` old. */
function statuslineReading(tokens: number, ageMs = 1_000): void {
  recordReading(session(), {
    source: "statusline",
    contextTokens: tokens,
    modelWindowTokens: 1_000_000,
    autoCompactTokens: 967_000,
    model: "claude-opus-5-5",
    atMs: 1_000_000 - ageMs,
  });
}

const env = () => ({ HOME: home });
const session = () => openSession(env(), SESSION);

describe("print mode: from the transcript alone", async () => {
  it("tells the user and gives the agent facts once the context passes 60% of the auto-compact point", async () => {
    transcriptEndingAt(45_000);
    expect(await remind(SMALL_WINDOW)).toEqual({
      systemMessage:
        "Context at 67% of the auto-compact point (45k of 67k tokens). " +
        "Run /compact-prep now to save plan, decisions and tasks before auto-compaction.",
      hookSpecificOutput: {
        hookEventName: "UserPromptSubmit",
        additionalContext:
          "Context usage is at 67% of the auto-compact point (45k of 67k tokens); " +
          "auto-compaction replaces the history with a summary at 100%. " +
          "The user has been told that /compact-prep saves plan, decisions and tasks first.",
      },
    });
    expect(listMarkers(session())).toEqual(["announced-60"]);
  });

  it("says nothing below the first level, and creates nothing", async () => {
    transcriptEndingAt(30_000);
    expect(await remind(SMALL_WINDOW)).toBeNull();
    expect(existsSync(join(home, ".claude"))).toBe(false);
  });

  it("announces a level once", async () => {
    transcriptEndingAt(45_000);
    expect(await remind(SMALL_WINDOW)).not.toBeNull();
    transcriptEndingAt(50_000);
    expect(await remind(SMALL_WINDOW)).toBeNull();
  });

  it("re-arms after a compaction, from the transcript's compact boundary", async () => {
    transcriptEndingAt(45_000);
    await remind(SMALL_WINDOW);
    compactInTranscript();
    expect(await remind(SMALL_WINDOW)).toBeNull();
    expect(hasMarker(session(), "announced-60")).toBe(false);
    transcriptEndingAt(46_000);
    expect((await remind(SMALL_WINDOW))?.systemMessage).toMatch(/^Context at 68% /);
  });

  it("says nothing before the transcript exists (the first prompt of a print run)", async () => {
    expect(await remind(SMALL_WINDOW)).toBeNull();
    expect(existsSync(join(home, ".claude"))).toBe(false);
  });

  it("says nothing when auto-compaction is off", async () => {
    transcriptEndingAt(990_000);
    expect(await remind({ DISABLE_AUTO_COMPACT: "1" })).toBeNull();
  });
});

describe("with the statusline", async () => {
  it("announces the level the statusline raised, from its fresh reading, and clears the marker", async () => {
    statuslineReading(600_000);
    writeMarker(session(), "level-60", {}, 1);
    expect((await remind())?.systemMessage).toBe(
      "Context at 62% of the auto-compact point (600k of 967k tokens). " +
        "Run /compact-prep now to save plan, decisions and tasks before auto-compaction.",
    );
    expect(listMarkers(session())).toEqual(["announced-60"]);
    expect(await remind()).toBeNull();
  });

  it("drops a raised level the context is back below: a warning never survives a compaction", async () => {
    statuslineReading(20_000);
    writeMarker(session(), "level-60", {}, 1);
    writeMarker(session(), "announced-85", {}, 1);
    expect(await remind()).toBeNull();
    expect(listMarkers(session())).toEqual([]);
  });

  it("reads the transcript when the statusline's reading is stale", async () => {
    statuslineReading(20_000, 600_000);
    transcriptEndingAt(700_000);
    expect((await remind())?.systemMessage).toMatch(
      /^Context at 72% of the auto-compact point \(700k of 967k tokens\)/,
    );
  });

  it("announces only the highest of several levels passed at once, and marks all of them", async () => {
    statuslineReading(900_000);
    writeMarker(session(), "level-60", {}, 1);
    writeMarker(session(), "level-85", {}, 1);
    expect((await remind())?.systemMessage).toMatch(/^Context at 93% /);
    expect(listMarkers(session())).toEqual(["announced-60", "announced-85"]);
    expect(await remind()).toBeNull();
  });

  it("announces the next level later in the same session", async () => {
    statuslineReading(600_000);
    await remind();
    statuslineReading(850_000);
    expect((await remind())?.systemMessage).toMatch(/^Context at 87% /);
  });
});

describe("config and edge cases", async () => {
  it("keeps muted levels silent but counts them as told", async () => {
    statuslineReading(900_000);
    expect((await remind({ CARRYOVER_PREP_REMINDER_MUTED_LEVELS: "85" }))?.systemMessage).toMatch(/^Context at 93% /);
    expect(listMarkers(session())).toEqual(["announced-60", "announced-85"]);
  });

  it("says nothing when every level reached is muted", async () => {
    statuslineReading(600_000);
    expect(await remind({ CARRYOVER_PREP_REMINDER_MUTED_LEVELS: "60,85" })).toBeNull();
    expect(hasMarker(session(), "announced-60")).toBe(true);
  });

  it("follows the configured levels and texts; an empty context text gives the agent nothing", async () => {
    statuslineReading(400_000);
    const output = await remind({
      CARRYOVER_LEVELS: "40",
      CARRYOVER_PREP_REMINDER_MESSAGE: "ctx {percent}% ({used}/{limit}, {left} left) passed {level}%",
      CARRYOVER_PREP_REMINDER_CONTEXT: "",
    });
    expect(output).toEqual({ systemMessage: "ctx 41% (400k/967k, 567k left) passed 40%" });
  });

  it("past the auto-compact point tells only the user: the agent would read it after the compaction", async () => {
    transcriptEndingAt(70_000);
    expect(await remind(SMALL_WINDOW)).toEqual({
      systemMessage:
        "Context at 104% of the auto-compact point (70k of 67k tokens): " +
        "Claude Code compacts before answering this prompt.",
    });
  });

  it("stays silent while the user runs /compact-prep, and counts the level as told", async () => {
    statuslineReading(600_000);
    expect(await remind({}, "/compact-prep keep the plan")).toBeNull();
    expect(hasMarker(session(), "announced-60")).toBe(true);
  });

  it("says nothing with no levels configured", async () => {
    statuslineReading(900_000);
    expect(await remind({ CARRYOVER_LEVELS: "[]" })).toBeNull();
  });
});

describe("the probe", async () => {
  /** A reading the statusline recorded `ageMs` ago, vouched for `freshMs` (the default freshReadingMs). */
  function vouched(ageMs: number, freshMs: number | null = 300_000): void {
    const atMs = 1_000_000 - ageMs;
    const reading = {
      source: "statusline" as const,
      contextTokens: 700_000,
      modelWindowTokens: 1_000_000,
      autoCompactTokens: 967_000,
      atMs,
    };
    recordReading(session(), { ...reading, ...(freshMs === null ? {} : { freshUntilMs: atMs + freshMs }) });
  }

  it("finds nothing to do with a fresh statusline reading and no level marker", async () => {
    vouched(1_000);
    expect(probe()).toBeNull();
  });

  it("hands run the markers and the reading when the statusline raised a level", async () => {
    vouched(1_000);
    writeMarker(session(), "level-60", {}, 1_000_000);
    expect(probe()).toMatchObject({ markers: new Set(["level-60"]), recorded: { contextTokens: 700_000 } });
  });

  it("goes on to run without a reading or with a stale one, creating nothing: the transcript is asked", async () => {
    expect(probe()).toEqual({ markers: new Set(), recorded: null });
    expect(existsSync(join(home, ".claude"))).toBe(false);
    vouched(300_001);
    expect(probe()).not.toBeNull();
  });

  it("judges freshness by what the statusline vouched for, not by config it does not load", async () => {
    vouched(300_001, 400_000);
    expect(probe()).toBeNull();
    vouched(1_000, 500);
    expect(probe()).not.toBeNull();
    vouched(1_000, null);
    expect(probe()).not.toBeNull();
    vouched(-1_000);
    expect(probe()).not.toBeNull();
  });
});
