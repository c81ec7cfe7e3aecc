import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type HookJsonOutput,
  hasPendingCompaction,
  loadConfig,
  markCompacted,
  openSession,
  readMarker,
  type SessionStartInput,
  type UserPromptSubmitInput,
} from "@carryover/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { boundary, prompt, sessionStartContext, toolCall } from "../test/transcript-lines.ts";
import { keys } from "./config.ts";
import { hook } from "./hook.ts";
import { RECOVERY_HEADING } from "./render.ts";

const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
const COMPACT_PROMPT = "1b0ed739-f2ba-4e9c-a086-99991083de5d";
let root: string;
let env: Record<string, string>;
let transcript: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-recovery-"));
  mkdirSync(join(root, "proj"));
  env = { HOME: join(root, "home"), TMPDIR: join(root, "tmp") };
  transcript = join(root, "t.jsonl");
  writeFileSync(transcript, `${[prompt("build the parser"), ...toolCall("Bash", { command: "echo a" })].join("\n")}\n`);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function sessionStart(source = "compact"): SessionStartInput {
  return {
    session_id: SESSION,
    transcript_path: transcript,
    cwd: join(root, "proj"),
    hook_event_name: "SessionStart",
    source,
    prompt_id: COMPACT_PROMPT,
  };
}

function userPrompt(): UserPromptSubmitInput {
  return {
    session_id: SESSION,
    transcript_path: transcript,
    cwd: join(root, "proj"),
    hook_event_name: "UserPromptSubmit",
    prompt: "go on",
    prompt_id: "next-prompt",
    permission_mode: "default",
  };
}

/** The probe, then run when it found something, as the runtime does them, at `nowMs`. */
async function invoke(input: SessionStartInput | UserPromptSubmitInput, nowMs = 2_000_000) {
  const projectDir = join(root, "proj");
  const session = openSession(env, SESSION);
  if (hook.probe!({ name: "recovery", payload: input, env, nowMs, projectDir, session }) === null) return null;
  const config = loadConfig("recovery", keys, env, projectDir);
  const output = (await hook.run(
    { input, event: input.hook_event_name, env, nowMs, config, projectDir, session, log: () => {} },
    true,
  )) as HookJsonOutput | null;
  return output?.hookSpecificOutput ?? null;
}

/** What Claude Code 2.1.332 writes once the compaction is done: the boundary, then the SessionStart context it got. */
function compactionWritten(delivered: string | null): void {
  appendFileSync(
    transcript,
    `${boundary("manual", "2026-11-29T17:14:24.845Z")}\n` +
      (delivered === null ? "" : `${sessionStartContext(delivered)}\n`),
  );
}

describe("exactly one delivery per compaction", () => {
  // 2.1.332 runs SessionStart(compact), then PostCompact (which marks the compaction), then the next prompt.
  it("2.1.332 order: SessionStart delivers, the next prompt stays silent and clears the mark", async () => {
    const delivered = await invoke(sessionStart());
    expect(delivered).toEqual({
      hookEventName: "SessionStart",
      additionalContext: expect.stringMatching(new RegExp(`^${RECOVERY_HEADING}: `)),
    });
    markCompacted(openSession(env, SESSION), { trigger: "manual", promptId: COMPACT_PROMPT }, 2_000_100);
    compactionWritten(delivered!.additionalContext);

    expect(await invoke(userPrompt(), 2_010_000)).toBeNull();
    expect(hasPendingCompaction(openSession(env, SESSION))).toBe(false);
    expect(await invoke(userPrompt(), 2_020_000)).toBeNull();
  });

  // SessionStart(compact) ran, but the transcript has no context of it after the boundary.
  it("SessionStart's context never reached the transcript: the next prompt delivers, once", async () => {
    await invoke(sessionStart());
    markCompacted(openSession(env, SESSION), { trigger: "auto", promptId: COMPACT_PROMPT }, 2_000_100);
    compactionWritten(null);

    const recovered = await invoke(userPrompt(), 2_010_000);
    expect(recovered).toEqual({
      hookEventName: "UserPromptSubmit",
      additionalContext: expect.stringContaining("compacted at 1970-01-01T00:33:20Z, auto."),
    });
    expect(await invoke(userPrompt(), 2_020_000)).toBeNull();
  });

  it("no SessionStart(compact) at all: the next prompt delivers and records the compaction's prompt id", async () => {
    markCompacted(openSession(env, SESSION), { trigger: "manual", promptId: COMPACT_PROMPT }, 2_000_100);
    compactionWritten(null);
    expect((await invoke(userPrompt(), 2_010_000))?.hookEventName).toBe("UserPromptSubmit");
    expect(readMarker(openSession(env, SESSION), "recovery-delivered", { nowMs: 2_010_000 })?.data).toEqual({
      promptId: COMPACT_PROMPT,
    });
  });

  // Other versions run PostCompact before SessionStart(compact).
  it("PostCompact first: SessionStart delivers with the trigger, the prompt stays silent", async () => {
    markCompacted(openSession(env, SESSION), { trigger: "manual", promptId: COMPACT_PROMPT }, 1_999_000);
    const delivered = await invoke(sessionStart());
    expect(delivered?.additionalContext).toContain("compacted at 1970-01-01T00:33:20Z, manual.");
    expect(hasPendingCompaction(openSession(env, SESSION))).toBe(false);
    compactionWritten(delivered!.additionalContext);
    expect(await invoke(userPrompt(), 2_010_000)).toBeNull();
  });

  it("without a readable transcript the recorded delivery stands", async () => {
    await invoke(sessionStart());
    markCompacted(openSession(env, SESSION), { trigger: "manual", promptId: COMPACT_PROMPT }, 2_000_100);
    rmSync(transcript);
    expect(await invoke(userPrompt(), 2_010_000)).toBeNull();
  });

  it("a later compaction is delivered again", async () => {
    const first = await invoke(sessionStart());
    markCompacted(openSession(env, SESSION), { trigger: "manual", promptId: COMPACT_PROMPT }, 2_000_100);
    compactionWritten(first!.additionalContext);
    await invoke(userPrompt(), 2_010_000);

    markCompacted(openSession(env, SESSION), { trigger: "auto", promptId: "second-compaction" }, 3_000_000);
    appendFileSync(transcript, `${boundary("auto", "2026-11-29T18:00:00.000Z")}\n`);
    expect((await invoke(userPrompt(), 3_010_000))?.additionalContext).toContain(", auto.");
  });
});

describe("nothing to do", () => {
  it("SessionStart(startup|resume) and a prompt with nothing pending print and create nothing", async () => {
    expect(await invoke(sessionStart("startup"))).toBeNull();
    expect(await invoke(sessionStart("resume"))).toBeNull();
    expect(await invoke(userPrompt())).toBeNull();
    expect(existsSync(join(root, "home"))).toBe(false);
  });
});

describe("the probe", () => {
  const probe = (payload: Record<string, unknown>) =>
    hook.probe!({
      name: "recovery",
      payload: { session_id: SESSION, ...payload },
      env,
      nowMs: 0,
      projectDir: root,
      session: openSession(env, SESSION),
    });

  it("lets through SessionStart(compact) alone, and a prompt only while a compaction is pending", () => {
    expect(probe({ hook_event_name: "SessionStart", source: "startup" })).toBeNull();
    expect(probe({ hook_event_name: "SessionStart", source: "compact" })).toBe(true);
    expect(probe({ hook_event_name: "UserPromptSubmit" })).toBeNull();
    markCompacted(openSession(env, SESSION), { trigger: "auto" }, 0);
    expect(probe({ hook_event_name: "UserPromptSubmit" })).toBe(true);
  });
});
