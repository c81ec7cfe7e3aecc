import type { Step } from "../mock-api/types.ts";
import { expectSuccess, type PrintOptions, type PrintResult, runPrint } from "./print.ts";
import type { Sandbox } from "./sandbox.ts";

/**
 * Claude Code 2.1.332 raises smaller windows to this 100k minimum; the effective window is 80k and
 * auto compaction triggers at about 67k reported tokens (behaviour.md §2).
 */
export const autoCompactEnv: Record<string, string> = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" };

/** Reported input tokens that trigger auto compaction under `autoCompactEnv`. */
export const AUTO_COMPACT_INPUT_TOKENS = 70_000;

/** `MOCKSCRIPT:[…]` text to put in a prompt. */
export function mockScript(steps: Step[]): string {
  return `MOCKSCRIPT:${JSON.stringify(steps)}`;
}

/**
 * Three Bash steps, the third reporting 70,000 tokens, then `after` (default: one text reply). Compaction
 * needs at least one earlier assistant message, hence two steps before the heavy one.
 */
function autoCompactSteps(after: Step[] = [{ text: "finished" }]): Step[] {
  return [
    { tool: "Bash", input: { command: "echo a" } },
    { tool: "Bash", input: { command: "echo b" } },
    { tool: "Bash", input: { command: "echo c" }, input_tokens: AUTO_COMPACT_INPUT_TOKENS },
    ...after,
  ];
}

/** One print run whose tool loop auto-compacts between the 3rd and 4th request. */
export function runAutoCompactInLoop(
  sandbox: Sandbox,
  options: PrintOptions & { promptText?: string; after?: Step[] } = {},
): Promise<PrintResult> {
  const { promptText = "work on it", after, ...printOptions } = options;
  return runPrint(sandbox, `${promptText} ${mockScript(autoCompactSteps(after))}`, {
    ...printOptions,
    env: { ...autoCompactEnv, ...printOptions.env },
  });
}

/**
 * Two print runs: the first ends its turn reporting 70,000 tokens, the second (`--resume`) auto-compacts
 * right after its UserPromptSubmit and before its first main request.
 */
export async function runAutoCompactBetweenTurns(
  sandbox: Sandbox,
  options: PrintOptions & { firstPrompt?: string; secondPrompt?: string } = {},
): Promise<{ first: PrintResult; second: PrintResult }> {
  const { firstPrompt = "first task", secondPrompt = "second task", ...printOptions } = options;
  const env = { ...autoCompactEnv, ...printOptions.env };
  const firstSteps: Step[] = [
    { tool: "Bash", input: { command: "echo a" } },
    { text: "first turn done", input_tokens: AUTO_COMPACT_INPUT_TOKENS },
  ];
  const first = await runPrint(sandbox, `${firstPrompt} ${mockScript(firstSteps)}`, { ...printOptions, env });
  const second = await runPrint(sandbox, secondPrompt, { ...printOptions, env, resume: expectSuccess(first) });
  return { first, second };
}
