// Races between real processes of the built hooks: one compaction marker raced by its two consumers, and
// eight sessions of one project working at once.
import { randomUUID } from "node:crypto";
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  hasPendingCompaction,
  loadReading,
  markCompacted,
  openSession,
  readLedger,
} from "../../packages/core/src/index.ts";
import { payloadPath } from "../../test-fixtures/payloads/index.ts";
import { recordFigures } from "./figures.ts";
import { hookExecutable } from "./hooks.ts";
import { capturedPayloads } from "./payloads.ts";
import { createSandbox, type Sandbox } from "./sandbox.ts";
import { SESSIONS, seedFiles } from "./seed.ts";
import { runFile } from "./spawn.ts";

const DEADLINE_MS = 20_000;
const ROUNDS = 100;
let sandbox: Sandbox;

beforeEach(() => {
  sandbox = createSandbox("races");
  seedFiles(sandbox);
});
afterEach(() => sandbox.cleanup());

function runHook(hookName: string, event: string, fields: Record<string, unknown>) {
  const payload = { ...capturedPayloads(event, sandbox)[0]!, ...fields };
  return runFile(hookExecutable(hookName), {
    env: sandbox.env,
    cwd: sandbox.project,
    stdin: JSON.stringify(payload),
    deadlineMs: DEADLINE_MS,
  });
}

describe("races", () => {
  // Its two consumers: SessionStart(compact) and UserPromptSubmit.
  test("one pending compaction, its two consumers started together: one delivers, 100 rounds of 100", async () => {
    const session = SESSIONS[0]!;
    // Mid-compaction: Claude Code 2.1.332 writes the boundary after these hooks ran, so the history has none yet.
    const transcript = join(sandbox.transcriptsDir, `${session}.jsonl`);
    const history = readFileSync(payloadPath("transcript-sample.jsonl"), "utf8")
      .split("\n")
      .filter((line) => !line.includes('"compact_boundary"'));
    writeFileSync(transcript, history.join("\n"));
    const deliveries: number[] = [];
    const failures: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const promptId = `compaction-${round}`;
      markCompacted(openSession(sandbox.env, session), { trigger: "auto", promptId }, Date.now());
      const common = { session_id: session, transcript_path: transcript, cwd: sandbox.project };
      const runs = await Promise.all([
        runHook("recovery", "SessionStart", { ...common, source: "compact", prompt_id: promptId }),
        runHook("recovery", "UserPromptSubmit", { ...common, prompt_id: `prompt-after-${round}`, prompt: "go on" }),
      ]);
      for (const run of runs)
        if (run.code !== 0 || run.stderr) failures.push(`round ${round}: exit ${run.code} ${run.stderr}`);
      deliveries.push(runs.filter((run) => run.stdout.includes("carryover recovery")).length);
      if (hasPendingCompaction(openSession(sandbox.env, session)))
        failures.push(`round ${round}: the compaction is still pending`);
    }
    const counted = {
      rounds: ROUNDS,
      exactlyOne: deliveries.filter((count) => count === 1).length,
      none: deliveries.filter((count) => count === 0).length,
      two: deliveries.filter((count) => count === 2).length,
    };
    recordFigures("race.recovery-channels", counted);
    expect(failures).toEqual([]);
    expect(counted).toEqual({ rounds: ROUNDS, exactlyOne: ROUNDS, none: 0, two: 0 });
  }, 300_000);

  // Each through PreCompact, PostCompact, the status line, recovery and a second PreCompact.
  test("eight sessions of one project at once: none sees another's state, no shared file loses a part", async () => {
    const sessions = Array.from({ length: 8 }, () => randomUUID());
    const transcript = (session: string) => join(sandbox.transcriptsDir, `${session}.jsonl`);
    for (const session of sessions) copyFileSync(payloadPath("transcript-sample.jsonl"), transcript(session));
    const tokensOf = (index: number) => 300_000 + index * 10_000;
    const summaryOf = (index: number) => `SUMMARY-OF-SESSION-${index}`;
    const outputs = await Promise.all(
      sessions.map(async (session, index) => {
        const common = { session_id: session, transcript_path: transcript(session), cwd: sandbox.project };
        const statusLine = capturedPayloads("StatusLine", sandbox)[0]!;
        const usage = {
          input_tokens: tokensOf(index),
          output_tokens: 5,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        };
        // The status line after the compaction: PostCompact forgets the reading taken before it.
        const steps = [
          () => runHook("pre-compact", "PreCompact", { ...common, prompt_id: `compaction-1-${index}` }),
          () =>
            runHook("post-compact", "PostCompact", {
              ...common,
              prompt_id: `compaction-1-${index}`,
              compact_summary: `<summary>${summaryOf(index)}</summary>`,
            }),
          () =>
            runHook("statusline", "StatusLine", {
              ...common,
              context_window: {
                ...(statusLine.context_window as object),
                current_usage: usage,
                total_input_tokens: tokensOf(index),
              },
            }),
          () => runHook("recovery", "UserPromptSubmit", { ...common, prompt_id: `prompt-${index}`, prompt: "go on" }),
          () => runHook("pre-compact", "PreCompact", { ...common, prompt_id: `compaction-2-${index}` }),
        ];
        const runs = [];
        for (const step of steps) runs.push(await step());
        return runs;
      }),
    );
    const crossTalk: string[] = [];
    sessions.forEach((session, index) => {
      const [, , , recovery, steering] = outputs[index]!.map((run) => run.stdout);
      if (loadReading(openSession(sandbox.env, session))?.contextTokens !== tokensOf(index))
        crossTalk.push(`${session}: reading ${loadReading(openSession(sandbox.env, session))?.contextTokens}`);
      const ledger = readLedger(openSession(sandbox.env, session)).map((entry) => entry.summary);
      if (JSON.stringify(ledger) !== JSON.stringify([summaryOf(index)]))
        crossTalk.push(`${session}: ledger ${JSON.stringify(ledger)}`);
      if (!recovery!.includes(session)) crossTalk.push(`${session}: recovery does not name its session`);
      if (!steering!.includes(summaryOf(index)))
        crossTalk.push(`${session}: second PreCompact does not carry its summary forward`);
      sessions.forEach((other, otherIndex) => {
        if (other === session) return;
        if (recovery!.includes(other)) crossTalk.push(`${session}: recovery names ${other}`);
        if (steering!.includes(summaryOf(otherIndex)))
          crossTalk.push(`${session}: steering quotes ${summaryOf(otherIndex)}`);
      });
    });
    const failed = outputs.flat().filter((run) => run.code !== 0 || run.stderr !== "");
    const changes = readFileSync(join(sandbox.project, "CHANGES_SESSION.md"), "utf8");
    const sections = sessions.flatMap((session, index) =>
      [1, 2].map((round) => `session=${session} prompt=compaction-${round}-${index}`),
    );
    const lostSections = sections.filter((marker) => !changes.includes(marker));
    const topics = readdirSync(sandbox.memoryDir).filter((name) => name.startsWith("carryover-session-"));
    // MEMORY.md links the sessions file, which links each session's topic file.
    const index = readFileSync(join(sandbox.memoryDir, "carryover-sessions.md"), "utf8");
    const lostIndexLines = topics.filter((topic) => !index.includes(`](${topic})`));
    recordFigures("race.eight-sessions", {
      sessions: sessions.length,
      processes: outputs.flat().length,
      crossTalk: crossTalk.length,
      lostSections: lostSections.length,
      topicFiles: topics.length,
      lostIndexLines: lostIndexLines.length,
    });
    expect(failed).toEqual([]);
    expect(crossTalk).toEqual([]);
    expect(lostSections).toEqual([]);
    expect(topics).toHaveLength(sessions.length);
    expect(lostIndexLines).toEqual([]);
  }, 120_000);
});
