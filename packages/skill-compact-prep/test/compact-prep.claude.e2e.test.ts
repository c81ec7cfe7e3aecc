import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compactStatePath, renderState } from "@carryover/core";
import {
  createSandbox,
  expectSuccess,
  expectTextInRequest,
  firstMainAfterCompaction,
  lastMainRequest,
  requestText,
  runCompact,
  runPrint,
  type Sandbox,
} from "@carryover/test-fixtures/e2e";
import { afterEach, describe, expect, it } from "vitest";

const INSTALL = join(import.meta.dirname, "../scripts/install-skill.mjs");
const RECOVERY = join(import.meta.dirname, "../../hook-recovery/dist/carryover-recovery.cjs");
const POST_COMPACT = join(import.meta.dirname, "../../hook-post-compact/dist/carryover-post-compact.cjs");
const HEADING = "carryover recovery: this conversation was compacted";
// Neither Bash nor Write: the skill's own allowed-tools must let its steps run.
const NOT_BASH_OR_WRITE = ["Glob"];

const FILLED = renderState(["Saved by the e2e test."], {
  "## Active Plan": "Ship the parser rewrite (no plan file).",
  "## Current Phase": "Phase 2 of 3: verify on staging before deploying.",
  "## TaskList Summary": "in progress: parser; pending: docs.",
  "## Session Decisions": "Adopted: streaming parser. Rejected: regex parser, because it fails on nested quotes.",
  "## Constraints and Blockers": "Edit the source repository, never the deployed copy.",
  "## Worker Topology": "none",
  "## Editing Files": "src/parser.ts (unverified).",
  "## Recovery Notes": "Verify before deploying.",
});

interface SkillSandbox {
  sandbox: Sandbox;
  skillDir: string;
  statePath(sessionId: string): string;
  cli(command: string, sessionId: string): string;
  /** SKILL.md's step 4: the whole state through `write`, in a quoted heredoc. */
  save(text: string, sessionId: string): string;
}

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

/** A sandbox with the skill installed the documented way and the recovery + post-compact hooks registered. */
async function skillSandbox(): Promise<SkillSandbox> {
  const tmp = mkdtempSync(join(tmpdir(), "carryover-e2e-tmpdir-"));
  const recovery = { type: "command", command: RECOVERY, timeout: 30 };
  sandbox = await createSandbox({
    env: { TMPDIR: tmp },
    settings: {
      hooks: {
        PostCompact: [{ hooks: [{ type: "command", command: POST_COMPACT, timeout: 10 }] }],
        SessionStart: [{ matcher: "compact", hooks: [recovery] }],
        UserPromptSubmit: [{ hooks: [recovery] }],
      },
    },
  });
  sandbox.onCleanup(() => rmSync(tmp, { recursive: true, force: true }));
  execFileSync(process.execPath, [INSTALL, join(sandbox.home, ".claude/skills")], { stdio: "pipe" });
  const skillDir = join(sandbox.home, ".claude/skills/compact-prep");
  return {
    sandbox,
    skillDir,
    statePath: (sessionId) => compactStatePath({ TMPDIR: tmp }, sessionId),
    // Exactly the command line SKILL.md asks for, as Claude Code substitutes it.
    cli: (command, sessionId) => `"${skillDir}/carryover-state" ${command} --session "${sessionId}"`,
    save: (text, sessionId) =>
      `"${skillDir}/carryover-state" write --session "${sessionId}" <<'CARRYOVER_STATE'\n${text}CARRYOVER_STATE`,
  };
}

describe("/compact-prep on the real CLI", () => {
  it("saves the state through the skill's steps; after /compact the recovery context points to it, once", async () => {
    const { sandbox: s, cli, save, statePath } = await skillSandbox();
    const sessionId = randomUUID();
    const path = statePath(sessionId);
    s.mock.enqueue(
      { tool: "Bash", input: { command: cli("init --force", sessionId) } },
      { tool: "Read", input: { file_path: path } },
      { tool: "Bash", input: { command: save(FILLED, sessionId) } },
      { tool: "Bash", input: { command: cli("verify", sessionId) } },
      { text: `Compact prep complete: ${path}. Please run \`/compact\`.` },
    );

    const prep = await runPrint(s, "/compact-prep keep the staging check", {
      args: ["--session-id", sessionId],
      allowedTools: NOT_BASH_OR_WRITE,
    });

    expect(expectSuccess(prep)).toBe(sessionId);
    expect(prep.result).toBe(`Compact prep complete: ${path}. Please run \`/compact\`.`);
    const skillRequests = s.mock.mainRequests();
    expect(skillRequests).toHaveLength(5);
    expectTextInRequest(skillRequests[0], `Run \`${cli("init --force", sessionId)}\``);
    expectTextInRequest(skillRequests[0], "The user's notes (may be empty): keep the staging check");
    expectTextInRequest(skillRequests[1], `Wrote the template with all 9 headers to ${path}`);
    expectTextInRequest(skillRequests[3], `Saved the state to ${path}: all 9 headers present, in order`);
    expectTextInRequest(skillRequests[4], `${path}: all 9 headers present, in order`);
    expect(readFileSync(path, "utf8")).toBe(FILLED);

    expectSuccess(await runCompact(s, sessionId));
    expectSuccess(await runPrint(s, "continue", { resume: sessionId }));
    const first = firstMainAfterCompaction(s.mock.requests());
    const text = requestText(first);
    expect(text.split(HEADING)).toHaveLength(2);
    expect(text).toContain(`SessionStart hook additional context: ${HEADING}`);
    expect(text).toMatch(
      new RegExp(
        `- Compact-prep state: ${escapeRegExp(path)}, written through /compact-prep, saved [\\dT:Z-]+, ` +
          "\\d+ s before this compaction \\(no earlier compaction recorded\\)\\.",
      ),
    );

    expectSuccess(await runPrint(s, "and after", { resume: sessionId }));
    expect(requestText(lastMainRequest(s.mock.requests())).split(HEADING)).toHaveLength(2);
    expect(s.mock.errors()).toEqual([]);
  });

  it("in plan mode, where Claude Code refuses the Write tool, saves the state through write", async () => {
    const { sandbox: s, cli, save, statePath } = await skillSandbox();
    const sessionId = randomUUID();
    const path = statePath(sessionId);
    s.mock.enqueue(
      { tool: "Bash", input: { command: cli("init --force", sessionId) } },
      { tool: "Read", input: { file_path: path } },
      { tool: "Write", input: { file_path: path, content: FILLED } },
      { tool: "Bash", input: { command: save(FILLED, sessionId) } },
      { text: `Compact prep complete: ${path}. Please run \`/compact\`.` },
    );
    const prep = await runPrint(s, "/compact-prep", {
      args: ["--session-id", sessionId, "--permission-mode", "plan"],
      allowedTools: NOT_BASH_OR_WRITE,
    });
    expectSuccess(prep);
    const [, , , afterWrite, afterSave] = s.mock.mainRequests();
    expectTextInRequest(afterWrite, "while in plan mode");
    expectTextInRequest(afterSave, `Saved the state to ${path}: all 9 headers present, in order`);
    expect(readFileSync(path, "utf8")).toBe(FILLED);
  });

  it("refuses without a session id, and write names a missing header, keeping the state it had", async () => {
    const { sandbox: s, skillDir, cli, save, statePath } = await skillSandbox();
    const sessionId = randomUUID();
    const path = statePath(sessionId);
    // What a version without ${CLAUDE_SESSION_ID} substitution and without CLAUDE_CODE_SESSION_ID would run.
    s.mock.enqueue(
      {
        tool: "Bash",
        input: { command: `env -u CLAUDE_CODE_SESSION_ID "${skillDir}/carryover-state" init --force --session ""` },
      },
      { text: "Stopped: no session id." },
    );
    expectSuccess(await runPrint(s, "/compact-prep", { args: ["--session-id", sessionId] }));
    const refused = requestText(lastMainRequest(s.mock.requests()));
    expect(refused).toContain("Exit code 1");
    expect(refused).toContain(
      "carryover-state: no session id: pass --session <id> or run this from Claude Code's Bash tool",
    );
    expect(existsSync(path)).toBe(false);

    const withoutWorkers = FILLED.replace("## Worker Topology\n", "");
    s.mock.enqueue(
      { tool: "Bash", input: { command: cli("init --force", sessionId) } },
      { tool: "Read", input: { file_path: path } },
      { tool: "Bash", input: { command: save(withoutWorkers, sessionId) } },
      { text: "write failed" },
    );
    expectSuccess(await runPrint(s, "/compact-prep", { resume: sessionId, allowedTools: NOT_BASH_OR_WRITE }));
    const refusedWrite = requestText(lastMainRequest(s.mock.requests()));
    expect(refusedWrite).toContain("Exit code 1");
    expect(refusedWrite).toContain(
      `carryover-state: nothing written, ${path} is unchanged: missing "## Worker Topology"; the headers must be`,
    );
    expect(readFileSync(path, "utf8")).toContain(`Session: ${sessionId}`);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
