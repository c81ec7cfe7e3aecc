// Shared by the field checks: carryover registered as the installer registers it, the skill installed as
// documented, and the places a machine set up as users have it shares between users.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { renderState } from "../../../packages/core/src/index.ts";
import {
  compactionRequest,
  expectSuccess,
  firstMainAfterCompaction,
  lastMainRequest,
  mockScript,
  requestText,
  runCompact,
  runPrint,
  type Sandbox,
} from "../../../test-fixtures/e2e/index.ts";
import type { RecordedRequest } from "../../../test-fixtures/mock-api/types.ts";
import { discoverHooks, ROOT } from "../hooks.ts";

/** A settings.json hook handler running the built executable as the installer does: `/bin/sh <file> <event>`. */
export function hookHandler(name: string, event: string, timeoutSeconds = 30): Record<string, unknown> {
  const hook = discoverHooks().find((candidate) => candidate.name === name);
  if (!hook) throw new Error(`no hook package ${name}`);
  return { type: "command", command: "/bin/sh", args: [hook.executable, event], timeout: timeoutSeconds };
}

/** settings.json `hooks` for the named carryover hooks, each with the registrations its package.json declares. */
export function carryoverHooks(...names: string[]): Record<string, unknown[]> {
  const hooks: Record<string, unknown[]> = {};
  for (const hook of discoverHooks().filter((candidate) => names.includes(candidate.name))) {
    for (const { event, matcher, if: condition, timeout } of hook.registrations) {
      const handler = { ...hookHandler(hook.name, event, timeout), ...(condition ? { if: condition } : {}) };
      hooks[event] ??= [];
      hooks[event].push({ ...(matcher ? { matcher } : {}), hooks: [handler] });
    }
  }
  return hooks;
}

/** settings.json `statusLine` running carryover's built status line as the installer does (the file's path). */
export function carryoverStatusLine(): Record<string, unknown> {
  const hook = discoverHooks().find((candidate) => candidate.name === "statusline")!;
  return { type: "command", command: `'${hook.executable}'` };
}

/** Installs /compact-prep into `~/.claude/skills` the documented way; returns the skill's dir. */
export function installSkill(sandbox: Sandbox, claudeDir = sandbox.claudeDir): string {
  const script = join(ROOT, "packages", "skill-compact-prep", "scripts", "install-skill.mjs");
  execFileSync(process.execPath, [script, join(claudeDir, "skills")], { stdio: "pipe" });
  return join(claudeDir, "skills", "compact-prep");
}

/** A temp dir shared by every user like /tmp (mode 1777), inside the sandbox so the check leaves nothing behind. */
export function sharedTmp(sandbox: Sandbox): string {
  const dir = join(sandbox.root, "tmp");
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o1777);
  return dir;
}

/** The texts of the tool_results in a recorded request body, oldest first (what the model got back from its tools). */
function toolResults(body: { messages?: unknown[] } | undefined): string[] {
  const blocks = (body?.messages ?? []).flatMap((message) => {
    const content = (message as { content?: unknown }).content;
    return Array.isArray(content) ? (content as Array<{ type?: string; content?: unknown }>) : [];
  });
  return blocks
    .filter((block) => block.type === "tool_result")
    .map((block) =>
      typeof block.content === "string"
        ? block.content
        : Array.isArray(block.content)
          ? block.content.map((part: { text?: string }) => part.text ?? "").join("")
          : "",
    );
}

function lastToolResult(body: { messages?: unknown[] } | undefined): string {
  const result = toolResults(body).at(-1);
  if (result === undefined) throw new Error("the request holds no tool_result");
  return result;
}

/** What PreCompact hooks added to a compaction request (2.1.332 appends it after "Additional Instructions:"). */
function additionalInstructions(request: RecordedRequest): string {
  const text = requestText(request);
  const at = text.lastIndexOf(ADDITIONAL_INSTRUCTIONS);
  return at < 0 ? "" : text.slice(at + ADDITIONAL_INSTRUCTIONS.length);
}

const ADDITIONAL_INSTRUCTIONS = "Additional Instructions:\n";

/** A decision /compact-prep saves: it must reach the summarizer through pre-compact. */
export const DECISION = "Rejected: regex parser, because it fails on nested quotes.";

/** A filled state file, as the agent writes it in /compact-prep's step 4. */
export function filledState(decision = DECISION): string {
  return renderState(["Saved through /compact-prep."], {
    "## Active Plan": "Ship the parser rewrite (no plan file).",
    "## Current Phase": "Phase 2 of 3: verify on staging before deploying.",
    "## TaskList Summary": "in progress: parser; pending: docs.",
    "## Session Decisions": `Adopted: streaming parser. ${decision}`,
    "## Constraints and Blockers": "Edit the source repository, never the deployed copy.",
    "## Worker Topology": "none",
    "## Editing Files": "src/parser.ts (unverified).",
    "## Recovery Notes": "Verify before deploying.",
  });
}

export interface SkillRun {
  sessionId: string;
  skillDir: string;
  /** Runs Claude Code as this uid (see `createSandbox({ uid })`). */
  uid?: number | undefined;
}

/** Runs a Bash command through the real CLI in a new session (or resumes one); its output as the model got it. */
export async function bashOutput(sandbox: Sandbox, command: string, run: SkillRun, resume = false): Promise<string> {
  const prompt = `run ${mockScript([{ tool: "Bash", input: { command } }, { text: "ok" }])}`;
  const session = resume ? { resume: run.sessionId } : { args: ["--session-id", run.sessionId] };
  const result = await runPrint(sandbox, prompt, { ...session, uid: run.uid });
  expectSuccess(result);
  if (result.stderr.includes("Sandbox disabled"))
    throw new Error(`Claude Code ran without its sandbox: ${result.stderr.trim()}`);
  return lastToolResult(lastMainRequest(sandbox.mock.requests()).body);
}

/** The command line SKILL.md asks for, as Claude Code substitutes it. */
export function stateCli(run: SkillRun, command: string): string {
  return `"${run.skillDir}/carryover-state" ${command} --session "${run.sessionId}"`;
}

/**
 * /compact-prep through the skill's own steps on the real CLI (the session must exist): init, Read, then the
 * filled state through `carryover-state write` in a heredoc. Returns the run; the caller checks what it needs.
 */
export async function compactPrep(sandbox: Sandbox, run: SkillRun, statePath: string, content = filledState()) {
  sandbox.mock.enqueue(
    { tool: "Bash", input: { command: stateCli(run, "init --force") } },
    { tool: "Read", input: { file_path: statePath } },
    { tool: "Bash", input: { command: `${stateCli(run, "write")} <<'CARRYOVER_STATE'\n${content}CARRYOVER_STATE` } },
    { text: `Compact prep complete: ${statePath}. Please run \`/compact\`.` },
  );
  // Neither Bash nor Write allowed: the skill's own allowed-tools must let its steps run.
  const prep = await runPrint(sandbox, "/compact-prep keep the staging check", {
    resume: run.sessionId,
    allowedTools: ["Glob"],
    uid: run.uid,
  });
  expectSuccess(prep);
  const results = toolResults(lastMainRequest(sandbox.mock.requests()).body).slice(-4);
  if (!results.at(-1)?.includes(`${statePath}: all 9 headers present, in order`))
    throw new Error(`/compact-prep failed; its tools said:\n${results.join("\n---\n")}`);
  return prep;
}

/** `/compact` and one more prompt: what the summarizer was told and what the model got after. */
export async function compactAndContinue(
  sandbox: Sandbox,
  run: SkillRun,
): Promise<{ steering: string; afterCompaction: string }> {
  expectSuccess(await runCompact(sandbox, run.sessionId, undefined, { uid: run.uid }));
  expectSuccess(await runPrint(sandbox, "continue", { resume: run.sessionId, uid: run.uid }));
  const requests = sandbox.mock.requests();
  return {
    steering: additionalInstructions(compactionRequest(requests)),
    afterCompaction: requestText(firstMainAfterCompaction(requests)),
  };
}
