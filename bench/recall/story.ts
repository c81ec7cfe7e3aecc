import { join } from "node:path";
import { renderState } from "../../packages/core/src/index.ts";
import type { Step } from "../../test-fixtures/mock-api/server.ts";
import { MARK } from "./facts.ts";

/** What Claude Code 2.1.332 compacts on under CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000 (test-fixtures README). */
export const AUTO_COMPACT_TOKENS = 70_000;

/** One user turn: the prompt and the mock's replies to it (registered for the prompt's text). */
export interface Turn {
  prompt: string;
  steps: Step[];
}

/** The work every scenario does, in this order, before its compaction; the facts are planted here. */
export function plantingTurns(project: string): Turn[] {
  const file = (name: string) => join(project, name);
  return [
    {
      prompt: "Set up the parser module and its fixture.",
      steps: [
        { tool: "Write", input: { file_path: file(`src/${MARK.changedFile}`), content: "export const parse = 1;\n" } },
        { tool: "Edit", input: { file_path: file(`src/${MARK.changedFile}`), old_string: "= 1", new_string: "= 2" } },
        { tool: "Bash", input: { command: MARK.fixedCommand, description: "show the fixture" } },
        { tool: "Write", input: { file_path: file("recall-fixture.txt"), content: "fixture\n" } },
        { tool: "Bash", input: { command: MARK.fixedCommand, description: "show the fixture" } },
        { tool: "Bash", input: { command: `ls ${MARK.unresolvedTarget}`, description: "list the generated files" } },
        { text: "The parser is set up; the generated files are still missing." },
      ],
    },
    {
      prompt: "Track the work as tasks.",
      steps: [
        { tool: "ToolSearch", input: { query: "select:TaskCreate,TaskUpdate" } },
        {
          tool: "TaskCreate",
          input: { subject: `${MARK.task1} port the tokenizer`, description: "port it", activeForm: "Porting" },
        },
        {
          tool: "TaskCreate",
          input: { subject: `${MARK.task2} wire the CLI`, description: "wire it", activeForm: "Wiring" },
        },
        { tool: "TaskUpdate", input: { taskId: "1", status: "in_progress" } },
        { text: "Two tasks, the first in progress." },
      ],
    },
    {
      prompt: "Start the build watcher and the scout, and look the format up.",
      steps: [
        {
          tool: "Bash",
          input: {
            command: `tail -f /dev/null # ${MARK.watcher}`,
            description: "watch the build",
            run_in_background: true,
          },
        },
        {
          tool: "Bash",
          input: { command: `echo ${MARK.finishedShell}`, description: "quick check", run_in_background: true },
        },
        { tool: "Agent", input: { ...agent(MARK.scout, "survey the parser"), run_in_background: true } },
        { tool: "Agent", input: agent(MARK.finishedAgent, "look the format up") },
        { text: "The watcher and the scout run in the background; the format is looked up." },
      ],
    },
    {
      prompt: [
        `Here is what we decided. Adopted: the streaming tokenizer (${MARK.adopted}).`,
        `Rejected: the regex tokenizer (${MARK.rejected}), because it fails on nested quotes (${MARK.rejectedReason}).`,
        `Constraint: verify on staging before deploying (${MARK.constraint}).`,
        `Phase: 2 of 3, the tokenizer is ported, the CLI is next (${MARK.phase}).`,
      ].join(" "),
      steps: [{ text: "Noted." }],
    },
  ];
}

/** The subagents' own conversations: the scout waits for good (it is still running at every compaction). */
export function subagentScripts(): Record<string, Step[]> {
  return {
    [prompted(MARK.scout)]: [
      { tool: "Bash", input: { command: "tail -f /dev/null", description: "wait for the parser", timeout: 600_000 } },
      { text: "scouted" },
    ],
    [prompted(MARK.finishedAgent)]: [{ text: "The format is JSON lines." }],
  };
}

function agent(name: string, task: string): Record<string, unknown> {
  return { description: `${name} ${task}`, prompt: `${prompted(name)}: ${task}.`, subagent_type: "general-purpose" };
}

function prompted(name: string): string {
  return `You are ${name}`;
}

/** Asked in plan mode: Claude Code names the plan file in its answer's request (the name is random per session). */
export const PLAN_PROMPT = "Plan the CLI integration.";

export function planWriteTurn(planPath: string, tokens?: number): Turn {
  return {
    prompt: "Write the plan down.",
    steps: [
      {
        tool: "Write",
        input: { file_path: planPath, content: `# Plan: ${MARK.planGoal}, the CLI integration\n\n1. Wire the CLI.\n` },
      },
      { text: "The plan is written.", ...(tokens ? { input_tokens: tokens } : {}) },
    ],
  };
}

/** The state /compact-prep's agent writes: every header, the decisions in the session's own words. */
export function preparedState(): string {
  return renderState(["Saved through /compact-prep by the recall benchmark."], {
    "## Active Plan": "Integrate the tokenizer into the CLI.",
    "## Current Phase": `Phase 2 of 3: the tokenizer is ported, the CLI is next (${MARK.phase}).`,
    "## TaskList Summary": `In progress: ${MARK.task1}. Pending: ${MARK.task2}.`,
    "## Session Decisions":
      `Adopted: the streaming tokenizer (${MARK.adopted}). Rejected: the regex tokenizer (${MARK.rejected}), ` +
      `because it fails on nested quotes (${MARK.rejectedReason}).`,
    "## Constraints and Blockers": `Verify on staging before deploying (${MARK.constraint}).`,
    "## Worker Topology": `The build watcher (${MARK.watcher}) and the scout subagent (${MARK.scout}).`,
    "## Editing Files": `src/${MARK.changedFile}`,
    "## Recovery Notes": "Check the scout's findings before wiring the CLI.",
  });
}

/** The skill's strict procedure (SKILL.md), as the agent runs it: init, read, then write with a heredoc. */
export function prepSteps(stateCli: string, sessionId: string, statePath: string): Step[] {
  const cli = (command: string) => `"${stateCli}" ${command} --session "${sessionId}"`;
  const save = `${cli("write")} <<'CARRYOVER_STATE'\n${preparedState()}CARRYOVER_STATE`;
  return [
    { tool: "Bash", input: { command: cli("init --force"), description: "create the state file" } },
    { tool: "Read", input: { file_path: statePath } },
    { tool: "Bash", input: { command: save, description: "save the state" } },
    { text: `Compact prep complete: ${statePath}. Please run \`/compact\`.` },
  ];
}

/** The first words of the skill's body once Claude Code expands /compact-prep: the script's key. */
export const PREP_EXPANSION = "Strict procedure: do these steps in order";

/** Read-only work (plan mode allows it) whose third response reports the tokens that trigger an auto-compaction. */
export function toolLoopTurn(prompt: string, readme: string): Turn {
  const read = { tool: "Read", input: { file_path: readme } };
  return { prompt, steps: [read, read, { ...read, input_tokens: AUTO_COMPACT_TOKENS }, { text: "Checked." }] };
}

export function textTurn(prompt: string, tokens?: number): Turn {
  return { prompt, steps: [{ text: "Done.", ...(tokens ? { input_tokens: tokens } : {}) }] };
}
