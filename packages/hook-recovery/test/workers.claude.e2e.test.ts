import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  AUTO_COMPACT_INPUT_TOKENS,
  autoCompactEnv,
  createSandbox,
  expectSuccess,
  firstMainAfterCompaction,
  mockScript,
  releaseAtStop,
  requestText,
  runPrint,
  type Sandbox,
  untilReleased,
} from "@carryover/test-fixtures/e2e";
import type { RecordedRequest } from "@carryover/test-fixtures/mock-api";
import { afterEach, describe, expect, it } from "vitest";

const RECOVERY = join(import.meta.dirname, "../dist/carryover-recovery.cjs");
const POST_COMPACT = join(import.meta.dirname, "../../hook-post-compact/dist/carryover-post-compact.cjs");
const HEADING = "SessionStart hook additional context: carryover recovery: this conversation was compacted";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

const hooks = {
  PostCompact: [{ hooks: [{ type: "command", command: POST_COMPACT, timeout: 10 }] }],
  UserPromptSubmit: [{ hooks: [{ type: "command", command: RECOVERY, timeout: 30 }] }],
  SessionStart: [{ matcher: "compact", hooks: [{ type: "command", command: RECOVERY, timeout: 30 }] }],
  // The workers run until the session's Stop: at work when it compacts, however slow the machine.
  Stop: [{ hooks: [releaseAtStop()] }],
};
const SERVE = untilReleased("echo served");

function count(request: RecordedRequest, text: string): number {
  return requestText(request).split(text).length - 1;
}

/** A print-mode tool loop: `start` begins a worker, two more steps, then the heavy one that makes it compact. */
async function compactWhileRunning(start: Record<string, unknown>): Promise<{ sandbox: Sandbox; sessionId: string }> {
  sandbox = await createSandbox({ settings: { hooks } });
  const steps = [
    start,
    { tool: "Bash", input: { command: "echo b" } },
    { tool: "Bash", input: { command: "echo c" }, input_tokens: AUTO_COMPACT_INPUT_TOKENS },
    { tool: "Bash", input: { command: "echo d" } },
    { text: "finished" },
  ];
  const run = await runPrint(sandbox, `work on it ${mockScript(steps as never)}`, {
    env: autoCompactEnv,
    allowedTools: ["Bash", "Agent"],
    timeoutMs: 90_000,
  });
  return { sandbox, sessionId: expectSuccess(run) };
}

/** The first request after the compaction names the worker in the recovery context; the next adds no second copy. */
function expectNamedOnce(box: Sandbox, line: string): void {
  const requests = box.mock.requests();
  const first = firstMainAfterCompaction(requests);
  expect(count(first, HEADING), `recovery contexts in request #${first.n}`).toBe(1);
  const context = requestText(first).split(HEADING)[1]!;
  expect(context).toContain(line);
  const next = requests.find((request) => request.kind === "main" && request.n > first.n)!;
  expect(count(next, HEADING)).toBe(1);
  expect(count(next, line)).toBe(count(first, line));
}

describe("workers across an auto-compaction inside a tool loop, on the real CLI", () => {
  it("a background shell is named once, with its id and command", async () => {
    const { sandbox: box, sessionId } = await compactWhileRunning({
      tool: "Bash",
      input: { command: SERVE, description: "dev server", run_in_background: true },
    });
    const id = /"backgroundTaskId":"(\w+)"/.exec(readFileSync(box.transcriptPath(sessionId), "utf8"))![1]!;
    expectNamedOnce(box, `shell \`${id}\` “dev server”: \`${SERVE}\` — running; output: `);
    expect(requestText(firstMainAfterCompaction(box.mock.requests()))).toContain(
      `TaskStop with task_id ${id} stops it`,
    );
  });

  it("a background subagent is named once, with its id", async () => {
    const research = mockScript([
      { tool: "Bash", input: { command: untilReleased("echo found") } },
      { text: "research finished" },
    ]);
    const { sandbox: box, sessionId } = await compactWhileRunning({
      tool: "Agent",
      input: { description: "bg researcher", prompt: `research ${research}`, subagent_type: "general-purpose" },
    });
    const id = /"agentId":"(\w+)"/.exec(readFileSync(box.transcriptPath(sessionId), "utf8"))![1]!;
    expectNamedOnce(box, `agent \`${id}\` (general-purpose) “bg researcher” — running; transcript: `);
  });
});
