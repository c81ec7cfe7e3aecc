import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { requestText, type Sandbox } from "../../test-fixtures/e2e/index.ts";
import { latestPrompt } from "../../test-fixtures/mock-api/script.ts";
import type { RecordedRequest } from "../../test-fixtures/mock-api/server.ts";
import type { CompactionCapture } from "./capture.ts";
import type { Action } from "./scenarios.ts";
import { type ClaudeSession, startSession, type TurnResult } from "./session.ts";
import {
  PLAN_PROMPT,
  PREP_EXPANSION,
  plantingTurns,
  planWriteTurn,
  preparedState,
  prepSteps,
  subagentScripts,
  type Turn,
  textTurn,
  toolLoopTurn,
} from "./story.ts";

const ALLOWED_TOOLS = ["Bash", "Write", "Edit", "Read", "Agent", "TaskCreate", "TaskUpdate", "ToolSearch"];
// The Task tools are deferred tools behind this switch in 2.1.332; the window makes an auto-compaction cheap to reach.
const SESSION_ENV = { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1", CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" };
const TURN_START_TIMEOUT_MS = 60_000;

export interface DriverOptions {
  sandbox: Sandbox;
  sessionId: string;
  withCarryover: boolean;
  /** The built CLI, run on `node`: carryover is installed with it, as a user does. */
  cli: string;
  node: string;
  capture: CompactionCapture;
  /** Told where /compact-prep keeps the state, once it runs. */
  onStatePath(path: string): void;
}

/** Plays a scenario's actions on one Claude Code session (restarted with --resume where a scenario says). */
export class Driver {
  readonly notes: string[] = [];
  private session: ClaudeSession | undefined;
  private installed = false;
  /** The turn being sent: which request starts it, and the CLI's event count when that request arrived. */
  private awaited: { starts: (request: RecordedRequest) => boolean; from?: number } | undefined;
  /** How many compactions there had been when /compact-prep ran, and when it saved the state. */
  private prepRanAt: number | null = null;
  private prepSavedAt: number | null = null;

  private readonly sandbox: Sandbox;
  private readonly sessionId: string;
  private readonly capture: CompactionCapture;

  constructor(private readonly options: DriverOptions) {
    this.sandbox = options.sandbox;
    this.sessionId = options.sessionId;
    this.capture = options.capture;
    for (const [prompt, steps] of Object.entries(subagentScripts())) this.sandbox.mock.scriptFor(prompt, steps);
  }

  /** /compact-prep ran while the session had had at most `compactions` compactions. */
  ranPrepBefore(compactions: number): boolean {
    return this.prepRanAt !== null && this.prepRanAt <= compactions;
  }

  /** ... and saved its state then. */
  savedBefore(compactions: number): boolean {
    return this.prepSavedAt !== null && this.prepSavedAt <= compactions;
  }

  install(): void {
    const { cli, node } = this.options;
    execFileSync(node, [cli, "install", "--all"], { cwd: this.sandbox.project, env: this.sandbox.env, stdio: "pipe" });
    this.installed = true;
  }

  start(resume: boolean): void {
    this.session = startSession(this.sandbox, {
      sessionId: this.sessionId,
      resume,
      env: SESSION_ENV,
      allowedTools: ALLOWED_TOOLS,
    });
  }

  onRequest(request: RecordedRequest): void {
    const awaited = this.awaited;
    if (awaited && awaited.from === undefined && awaited.starts(request)) awaited.from = this.session!.eventCount();
  }

  /**
   * Sends `text` and waits for its turn's result. A background task's notification starts turns of its own
   * (2.1.332), so the result that counts is the first one after the request that `starts` recognises.
   */
  private async send(text: string, starts: (request: RecordedRequest) => boolean): Promise<TurnResult> {
    const awaited: { starts: (request: RecordedRequest) => boolean; from?: number } = { starts };
    this.awaited = awaited;
    this.session!.send(text);
    const deadline = Date.now() + TURN_START_TIMEOUT_MS;
    while (awaited.from === undefined) {
      if (Date.now() > deadline)
        throw new Error(`no request for ${JSON.stringify(text.slice(0, 60))} within ${TURN_START_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    this.awaited = undefined;
    return this.session!.result(awaited.from);
  }

  async stop(): Promise<void> {
    await this.session?.stop();
    this.session = undefined;
  }

  async act(action: Action): Promise<void> {
    switch (action.do) {
      case "plant":
        for (const turn of plantingTurns(this.sandbox.project)) await this.turn(turn);
        return;
      case "plan": {
        await this.session!.setPermissionMode("plan");
        await this.turn({ prompt: PLAN_PROMPT, steps: [{ text: "I will write the plan to the plan file." }] });
        const asked = requestText(this.sandbox.mock.mainRequests().findLast(prompted(PLAN_PROMPT)));
        const planPath = /(?:create your plan at|plan file already exists at) (\S+\.md)/.exec(asked)?.[1];
        if (!planPath) throw new Error("plan mode: Claude Code named no plan file");
        await this.turn(planWriteTurn(planPath, action.tokens));
        return;
      }
      case "prep":
        if (this.options.withCarryover) await this.prep();
        return;
      case "compact":
        await this.compacting(() => this.send("/compact", (request) => request.kind === "compaction"), "/compact");
        return;
      case "text": {
        const run = () => this.turn(textTurn(action.prompt, action.tokens));
        await (action.compacts ? this.compacting(run, action.prompt) : run());
        return;
      }
      case "loop":
        await this.compacting(
          () => this.turn(toolLoopTurn(action.prompt, join(this.sandbox.project, "README.md"))),
          action.prompt,
        );
        return;
      case "restart":
        await this.stop();
        if (action.install && this.options.withCarryover) this.install();
        this.start(true);
        return;
    }
  }

  private async turn(turn: Turn): Promise<void> {
    this.sandbox.mock.scriptFor(turn.prompt, turn.steps);
    const result = await this.send(turn.prompt, prompted(turn.prompt));
    if (result.is_error) throw new Error(`turn ${JSON.stringify(turn.prompt)} failed: ${String(result.result)}`);
  }

  private async compacting(run: () => Promise<unknown>, what: string): Promise<void> {
    const before = this.capture.compactionCount;
    await run();
    if (this.capture.compactionCount !== before + 1)
      throw new Error(`${what}: expected one compaction, Claude Code made ${this.capture.compactionCount - before}`);
  }

  /** /compact-prep as the skill's strict procedure has the agent run it, against the installed skill. */
  private async prep(): Promise<void> {
    if (!this.installed) throw new Error("/compact-prep before carryover is installed");
    const stateCli = join(this.sandbox.home, ".claude/skills/compact-prep/carryover-state");
    // Where the skill's CLI puts the state when the Bash tool runs it: the agent reads it from init's output.
    const env = { ...this.sandbox.env, CLAUDE_CODE_SESSION_ID: this.sessionId };
    const path = execFileSync(stateCli, ["path", "--session", this.sessionId], {
      cwd: this.sandbox.project,
      env,
      encoding: "utf8",
    }).trim();
    this.options.onStatePath(path);
    this.sandbox.mock.scriptFor(PREP_EXPANSION, prepSteps(stateCli, this.sessionId, path));
    await this.send("/compact-prep", prompted(PREP_EXPANSION));
    this.prepRanAt = this.capture.compactionCount;
    const saved = existsSync(path) && readFileSync(path, "utf8") === preparedState();
    if (saved) this.prepSavedAt = this.capture.compactionCount;
    else {
      const prepped = requestText(this.sandbox.mock.mainRequests().findLast(prompted(PREP_EXPANSION)));
      this.notes.push(`/compact-prep did not save the state: ${refusal(prepped, path)}`);
    }
  }
}

/** A main request whose latest prompt (not a tool result, not a notification) holds `text`. */
function prompted(text: string): (request: RecordedRequest) => boolean {
  return (request) =>
    request.kind === "main" && (latestPrompt(request.body?.messages ?? [])?.text.includes(text) ?? false);
}

/** Why the skill's save did not land, as the tool result told the agent. */
function refusal(text: string, statePath: string): string {
  const refused = /cannot|error|denied|not allowed|nothing written/i;
  const line = text.split("\n").find((l) => l.includes(statePath) && refused.test(l));
  return line ? `“${line.trim()}”` : "the state file is not what the agent wrote";
}
