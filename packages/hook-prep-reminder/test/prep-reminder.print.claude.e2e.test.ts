import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  autoCompactEnv,
  createSandbox,
  expectSuccess,
  expectTextInRequest,
  firstMainAfterCompaction,
  lastMainRequest,
  mockScript,
  requestText,
  runAutoCompactBetweenTurns,
  runPrint,
  type Sandbox,
} from "@carryover/test-fixtures/e2e";
import { afterEach, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/carryover-prep-reminder.cjs");
const CONTEXT =
  "UserPromptSubmit hook additional context: " +
  "Context usage is at 67% of the auto-compact point (45k of 67k tokens); " +
  "auto-compaction replaces the history with a summary at 100%.";
const MESSAGE = "Context at 67% of the auto-compact point (45k of 67k tokens). Run /compact-prep now";
let sandbox: Sandbox | undefined;

afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

const occurrences = (text: string, part: string) => text.split(part).length - 1;

it("in print mode (no statusline) the reminder fires from the transcript alone, once", async () => {
  sandbox = await createSandbox({
    settings: { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: BIN, timeout: 10 }] }] } },
  });
  // The auto-compact point under a 100k window is 67,000 tokens: 45,000 is 67% of it.
  const env = autoCompactEnv;
  const sessionId = expectSuccess(
    await runPrint(sandbox, `start ${mockScript([{ text: "started", input_tokens: 45_000 }])}`, { env }),
  );
  expect(requestText(lastMainRequest(sandbox.mock.requests()))).not.toContain("Context usage is at");

  expectSuccess(await runPrint(sandbox, "next step", { env, resume: sessionId }));
  expectTextInRequest(lastMainRequest(sandbox.mock.requests()), CONTEXT);
  // The user's half never reaches the model; Claude Code files it in the transcript.
  expect(requestText(lastMainRequest(sandbox.mock.requests()))).not.toContain(MESSAGE);
  const transcript = readFileSync(sandbox.transcriptPath(sessionId), "utf8");
  expect(transcript).toContain(MESSAGE);

  expectSuccess(await runPrint(sandbox, "one more step", { env, resume: sessionId }));
  // Earlier turns' contexts stay in the history: the reminder is there once, from the turn before.
  expect(occurrences(requestText(lastMainRequest(sandbox.mock.requests())), CONTEXT)).toBe(1);
  expect(sandbox.mock.errors()).toEqual([]);
});

it("past the auto-compact point only the user is told: the agent would read it after compacting", async () => {
  sandbox = await createSandbox({
    settings: { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: BIN, timeout: 10 }] }] } },
  });
  // Turn 1 ends at 70,000 tokens (104% of 67,000); turn 2's UserPromptSubmit runs, then Claude Code compacts.
  const { second } = await runAutoCompactBetweenTurns(sandbox);
  const sessionId = expectSuccess(second);
  const afterCompaction = firstMainAfterCompaction(sandbox.mock.requests());
  expect(requestText(afterCompaction)).not.toContain("Context usage is at");
  expect(readFileSync(sandbox.transcriptPath(sessionId), "utf8")).toContain(
    "Context at 104% of the auto-compact point (70k of 67k tokens): Claude Code compacts before answering this prompt.",
  );
  expect(sandbox.mock.errors()).toEqual([]);
});
