import { latestPrompt, parseMockScript, toBlocks } from "./script.ts";
import type { Message, RequestMessage, Step } from "./types.ts";

interface Position {
  steps: Step[];
  index: number;
}

/**
 * Chooses the step for each main request, first match wins:
 * 1. steps queued with `enqueue`;
 * 2. the `MOCKSCRIPT:[…]` in the latest user prompt, at index = assistant turns since that prompt;
 * 3. a script registered for a substring of that prompt (`scriptFor`), indexed the same way;
 * 4. the script that produced the tool_use the conversation ends with — after an auto compaction the
 *    prompt holding the script is summarised away, so the mock remembers which step each tool_use came from;
 * 5. a plain text reply.
 */
export class Planner {
  private readonly queue: Step[] = [];
  private readonly byPrompt = new Map<string, Step[]>();
  private readonly byToolUseId = new Map<string, Position>();

  constructor(private readonly defaultText: string) {}

  enqueue(...steps: Step[]): void {
    this.queue.push(...steps);
  }

  scriptFor(promptSubstring: string, steps: Step[]): void {
    this.byPrompt.set(promptSubstring, steps);
  }

  next(messages: RequestMessage[]): { step: Step; position?: Position } {
    const queued = this.queue.shift();
    if (queued !== undefined) return { step: queued };
    const prompt = latestPrompt(messages);
    if (prompt !== undefined) {
      const steps = parseMockScript(prompt.text) ?? this.registeredFor(prompt.text);
      if (steps !== undefined) return this.at(steps, prompt.assistantTurns);
      const resumed = this.continuation(messages.slice(prompt.index + 1));
      if (resumed !== undefined) return this.at(resumed.steps, resumed.index + 1);
    }
    return { step: { text: this.defaultText } };
  }

  /** Remembers which script step produced each tool_use of `reply`. */
  remember(reply: Message, position: Position | undefined): void {
    if (position === undefined) return;
    for (const block of reply.content) if (block.type === "tool_use") this.byToolUseId.set(block.id, position);
  }

  private at(steps: Step[], index: number): { step: Step; position?: Position } {
    const step = steps[index];
    return step === undefined ? { step: { text: this.defaultText } } : { step, position: { steps, index } };
  }

  private registeredFor(promptText: string): Step[] | undefined {
    for (const [substring, steps] of this.byPrompt) if (promptText.includes(substring)) return steps;
    return undefined;
  }

  private continuation(sincePrompt: RequestMessage[]): Position | undefined {
    const lastAssistant = [...sincePrompt].reverse().find((message) => message.role === "assistant");
    for (const block of toBlocks(lastAssistant?.content)) {
      const position = block.id === undefined ? undefined : this.byToolUseId.get(block.id);
      if (position !== undefined) return position;
    }
    return undefined;
  }
}
