// #17.9: status line renders racing PostCompact. Claude Code 2.1.332 renders the status line after each response;
// a render spawned just before the compaction carries the usage from before it (93% here), and can finish after
// PostCompact has run. Renders are spawned first and PostCompact right after them, as Claude Code would order
// them (after a compaction its status line input already says 0 tokens); then the next prompt's reminder runs.
import { randomUUID } from "node:crypto";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { autoCompactTokens } from "../../../packages/core/src/index.ts";
import { payloadPath } from "../../../test-fixtures/payloads/index.ts";
import { recordFigures } from "../figures.ts";
import { hookExecutable } from "../hooks.ts";
import { capturedPayloads } from "../payloads.ts";
import { createSandbox, type Sandbox } from "../sandbox.ts";
import { runFile } from "../spawn.ts";

const ROUNDS = 25;
const RENDERS = 20;
const WINDOW_ENV = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" };

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox("field-reading-race");
});
afterEach(() => sandbox.cleanup());

function start(hookName: string, event: string, fields: Record<string, unknown>) {
  const payload = { ...capturedPayloads(event, sandbox)[0]!, ...fields };
  return runFile(hookExecutable(hookName), {
    env: { ...sandbox.env, ...WINDOW_ENV },
    cwd: sandbox.project,
    stdin: JSON.stringify(payload),
    deadlineMs: 30_000,
  });
}

test(`a reading taken before a compaction never outlives it (${RENDERS} renders racing PostCompact)`, async () => {
  const threshold = autoCompactTokens(1_000_000, WINDOW_ENV)!;
  const tokens = Math.ceil(threshold * 0.93);
  const statusLine = capturedPayloads("StatusLine", sandbox)[0]!;
  const usage = { input_tokens: tokens, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const stale: string[] = [];
  const failed: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const session = randomUUID();
    const transcript = join(sandbox.transcriptsDir, `${session}.jsonl`);
    copyFileSync(payloadPath("transcript-sample.jsonl"), transcript);
    const common = { session_id: session, transcript_path: transcript, cwd: sandbox.project };
    const render = () =>
      start("statusline", "StatusLine", {
        ...common,
        context_window: { ...(statusLine.context_window as object), current_usage: usage, total_input_tokens: tokens },
      });
    // The context grew to 93% before the compaction, as the status line recorded.
    const runs = [await render()];
    const renders = Array.from({ length: RENDERS }, render);
    const postCompact = start("post-compact", "PostCompact", {
      ...common,
      prompt_id: `compaction-${round}`,
      compact_summary: "<summary>done so far</summary>",
    });
    runs.push(...(await Promise.all([...renders, postCompact])));
    const reminder = await start("prep-reminder", "UserPromptSubmit", {
      ...common,
      prompt_id: `after-${round}`,
      prompt: "go on",
    });
    runs.push(reminder);
    for (const run of runs)
      if (run.code !== 0 || run.stderr !== "") failed.push(`round ${round}: exit ${run.code} ${run.stderr}`);
    if (reminder.stdout.includes("93%")) stale.push(`round ${round}: ${reminder.stdout.slice(0, 200)}`);
  }
  recordFigures("field-reading-race", { rounds: ROUNDS, rendersPerRound: RENDERS, staleReminders: stale.length });
  expect(failed).toEqual([]);
  expect(stale).toEqual([]);
}, 600_000);
