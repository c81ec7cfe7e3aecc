import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  AUTO_COMPACT_INPUT_TOKENS,
  autoCompactEnv,
  createSandbox,
  expectSuccess,
  firstMainAfterCompaction,
  lastMainRequest,
  mockScript,
  requestText,
  runAutoCompactBetweenTurns,
  runAutoCompactInLoop,
  runCompact,
  runPrint,
  type Sandbox,
} from "@carryover/test-fixtures/e2e";
import type { RecordedRequest } from "@carryover/test-fixtures/mock-api";
import { afterEach, describe, expect, it } from "vitest";

const RECOVERY = join(import.meta.dirname, "../dist/carryover-recovery.cjs");
const POST_COMPACT = join(import.meta.dirname, "../../hook-post-compact/dist/carryover-post-compact.cjs");
const HEADING = "carryover recovery: this conversation was compacted";
const VIA_SESSION_START = `SessionStart hook additional context: ${HEADING}`;
const VIA_PROMPT = `UserPromptSubmit hook additional context: ${HEADING}`;

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

type SessionStartHook = "deliver" | "absent" | "output dropped";

/**
 * post-compact + recovery as the installer registers them; `sessionStart` simulates versions where that channel
 * fails.
 */
function hooks(sessionStart: SessionStartHook = "deliver"): Record<string, unknown> {
  const recovery = { type: "command", command: RECOVERY, timeout: 30 };
  // Runs, records its delivery, but Claude Code gets no output: what claude-code #28305 reports.
  const dropped = { type: "command", command: `"${RECOVERY}" >/dev/null`, timeout: 30 };
  return {
    PostCompact: [{ hooks: [{ type: "command", command: POST_COMPACT, timeout: 10 }] }],
    UserPromptSubmit: [{ hooks: [recovery] }],
    ...(sessionStart === "absent"
      ? {}
      : { SessionStart: [{ matcher: "compact", hooks: [sessionStart === "deliver" ? recovery : dropped] }] }),
  };
}

function count(request: RecordedRequest | undefined, text: string): number {
  if (!request) throw new Error("no request");
  return requestText(request).split(text).length - 1;
}

function expectDeliveredOnce(request: RecordedRequest | undefined, via: string): void {
  expect(count(request, HEADING), `recovery contexts in request #${request?.n}`).toBe(1);
  expect(count(request, via), `via ${via.split(" ")[0]}`).toBe(1);
}

function pendingMarker(s: Sandbox, sessionId: string): boolean {
  return existsSync(join(s.home, ".claude/carryover/sessions", sessionId, "markers/compacted.json"));
}

const TOOL_TURN = `start ${mockScript([{ tool: "Bash", input: { command: "echo a" } }, { text: "one" }])}`;

describe("recovery on the real CLI, post-compact hook registered beside it", () => {
  it("manual /compact: SessionStart(compact) delivers into the first request after it, once, not again", async () => {
    sandbox = await createSandbox({ settings: { hooks: hooks() }, files: { "CHANGES_SESSION.md": "# changes\n" } });
    const sessionId = expectSuccess(await runPrint(sandbox, TOOL_TURN));
    expectSuccess(await runCompact(sandbox, sessionId));
    expectSuccess(await runPrint(sandbox, "next step", { resume: sessionId }));
    const first = firstMainAfterCompaction(sandbox.mock.requests());
    expectDeliveredOnce(first, VIA_SESSION_START);
    const text = requestText(first);
    expect(text).toContain(`No compact-prep state was saved for this session (/compact-prep writes it to `);
    expect(text).toContain(`- Session changes log: ${join(sandbox.project, "CHANGES_SESSION.md")}`);
    expect(text).toContain(
      "its next steps are hypotheses, to be checked against the plan, the state file and the task list",
    );
    expect(count(first, VIA_PROMPT)).toBe(0);
    expect(pendingMarker(sandbox, sessionId)).toBe(false);

    expectSuccess(await runPrint(sandbox, "and after", { resume: sessionId }));
    const after = lastMainRequest(sandbox.mock.requests());
    expect(after.n).toBeGreaterThan(first.n);
    expect(count(after, HEADING)).toBe(1);
    expect(count(after, VIA_PROMPT)).toBe(0);
    expect(sandbox.mock.errors()).toEqual([]);
  });

  it("auto compaction inside a tool loop: delivered into the continuation request, once, and not again", async () => {
    sandbox = await createSandbox({ settings: { hooks: hooks() } });
    const run = await runAutoCompactInLoop(sandbox, {
      after: [{ tool: "Bash", input: { command: "echo after" } }, { text: "finished" }],
    });
    const sessionId = expectSuccess(run);
    const requests = sandbox.mock.requests();
    const first = firstMainAfterCompaction(requests);
    expectDeliveredOnce(first, VIA_SESSION_START);
    expect(count(lastMainRequest(requests), HEADING)).toBe(1);
    expect(lastMainRequest(requests).n).toBeGreaterThan(first.n);

    expectSuccess(await runPrint(sandbox, "next turn", { resume: sessionId }));
    const next = lastMainRequest(sandbox.mock.requests());
    expect(count(next, HEADING)).toBe(1);
    expect(count(next, VIA_PROMPT)).toBe(0);
  });

  it("auto compaction between turns: delivered into the first request after it, once, and not again", async () => {
    sandbox = await createSandbox({ settings: { hooks: hooks() } });
    const { second } = await runAutoCompactBetweenTurns(sandbox, { secondPrompt: "second task" });
    const sessionId = expectSuccess(second);
    const first = firstMainAfterCompaction(sandbox.mock.requests());
    expectDeliveredOnce(first, VIA_SESSION_START);
    expect(requestText(first)).toContain("second task");

    expectSuccess(await runPrint(sandbox, "third task", { resume: sessionId }));
    const next = lastMainRequest(sandbox.mock.requests());
    expect(count(next, HEADING)).toBe(1);
    expect(count(next, VIA_PROMPT)).toBe(0);
  });

  it("auto compaction in plan mode: names its plan file and TodoWrite list, asks to confirm plan mode", async () => {
    sandbox = await createSandbox({
      settings: { hooks: hooks() },
      files: { "README.md": "# proj\n" },
      // TodoWrite instead of the Task tools (behaviour.md §5); both are deferred, loaded through ToolSearch.
      env: { ...autoCompactEnv, CLAUDE_CODE_ENABLE_TODO_TOOLS: "1", CLAUDE_CODE_ENABLE_TASKS: "0" },
    });
    const planMode = { args: ["--permission-mode", "plan"], allowedTools: ["Read", "TodoWrite", "ToolSearch"] };
    const sessionId = expectSuccess(await runPrint(sandbox, "make a plan for the parser", planMode));
    // Plan mode lets the agent write only the plan file the request names; 2.1.332 keeps the name for the session.
    const planName = /plans\/([\w-]+\.md)/.exec(requestText(sandbox.mock.mainRequests()[0]!))?.[1];
    expect(planName).toBeDefined();
    const planPath = join(sandbox.home, ".claude/plans", planName!);
    const steps = [
      { tool: "Write", input: { file_path: planPath, content: "# Plan\n1. Rewrite the parser\n" } },
      { tool: "ToolSearch", input: { query: "select:TodoWrite" } },
      {
        tool: "TodoWrite",
        input: {
          todos: [
            { content: "Rewrite the parser", status: "in_progress", activeForm: "Rewriting" },
            { content: "Update the docs", status: "pending", activeForm: "Updating" },
          ],
        },
      },
      {
        tool: "Read",
        input: { file_path: join(sandbox.project, "README.md") },
        input_tokens: AUTO_COMPACT_INPUT_TOKENS,
      },
      { text: "finished" },
    ];
    expectSuccess(await runPrint(sandbox, `write it ${mockScript(steps)}`, { ...planMode, resume: sessionId }));

    expect(existsSync(planPath)).toBe(true);
    const first = firstMainAfterCompaction(sandbox.mock.requests());
    expectDeliveredOnce(first, VIA_SESSION_START);
    const text = requestText(first);
    expect(text).toContain(
      "Plan mode was on before this compaction: " +
        "whether it still applies must be confirmed with the user before any file is edited.",
    );
    expect(text).toContain(`- Plan file this session wrote: ${planPath}`);
    expect(text).toContain(
      "- The latest TodoWrite list (TodoWrite keeps no file; this is its last state in the transcript):\n" +
        "  - [in_progress] Rewrite the parser\n  - [pending] Update the docs",
    );
  });

  it.each<[string, SessionStartHook, string]>([
    ["SessionStart(compact)", "deliver", VIA_SESSION_START],
    ["the next prompt", "absent", VIA_PROMPT],
  ])(
    "installed after the first of two compactions seconds apart: %s counts that one from the transcript",
    async (_, sessionStart, via) => {
      sandbox = await createSandbox();
      const sessionId = expectSuccess(await runPrint(sandbox, TOOL_TURN));
      expectSuccess(await runCompact(sandbox, sessionId));
      sandbox.writeSettings({ hooks: hooks(sessionStart) });
      expectSuccess(await runPrint(sandbox, TOOL_TURN, { resume: sessionId }));
      expectSuccess(await runCompact(sandbox, sessionId));
      expectSuccess(await runPrint(sandbox, "next step", { resume: sessionId }));

      // No ledger has the first (post-compact came after it): only the transcript's position tells the two apart.
      const first = firstMainAfterCompaction(sandbox.mock.requests());
      expectDeliveredOnce(first, via);
      const transcript = sandbox.transcriptPath(sessionId);
      expect(requestText(first)).toContain(
        `- The summary of the earlier compaction: in the transcript, ${transcript} (the user line`,
      );
    },
  );

  it.each<[string, SessionStartHook]>([
    ["SessionStart(compact) is not registered (or never fires)", "absent"],
    ["SessionStart(compact) runs but its output never reaches the model", "output dropped"],
  ])("%s: the next prompt delivers, once", async (_, sessionStart) => {
    sandbox = await createSandbox({ settings: { hooks: hooks(sessionStart) } });
    const sessionId = expectSuccess(await runPrint(sandbox, TOOL_TURN));
    expectSuccess(await runCompact(sandbox, sessionId));
    // With its output dropped, the hook still ran and recorded a delivery that never reached the model.
    const recorded = existsSync(
      join(sandbox.home, ".claude/carryover/sessions", sessionId, "markers/recovery-delivered.json"),
    );
    expect(recorded).toBe(sessionStart === "output dropped");

    expectSuccess(await runPrint(sandbox, "next step", { resume: sessionId }));
    const first = firstMainAfterCompaction(sandbox.mock.requests());
    expectDeliveredOnce(first, VIA_PROMPT);
    expect(requestText(first)).toMatch(/compacted at \d{4}-\d\d-\d\dT[\d:]+Z, manual\./);

    expectSuccess(await runPrint(sandbox, "and after", { resume: sessionId }));
    expect(count(lastMainRequest(sandbox.mock.requests()), HEADING)).toBe(1);
  });
});
