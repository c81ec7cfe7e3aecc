import { messageText } from "./text.ts";
import type { RequestMessage, Step } from "./types.ts";

// `{{last:REGEX}}` in a tool input string: the first group of REGEX's last match in the request's messages. A
// script can then name what Claude Code made up at run time, such as a background task's id.
const PLACEHOLDER = /\{\{last:(.+?)\}\}/g;

/** `step` with every placeholder in its tool inputs filled from `messages`; unmatched ones stay as written. */
export function fillStep(step: Step, messages: RequestMessage[]): Step {
  if (step.input === undefined && step.tools === undefined) return step;
  let text: string | undefined;
  const fill = (value: unknown): unknown => {
    if (typeof value === "string") {
      return value.replace(PLACEHOLDER, (placeholder, source: string) => {
        text ??= messages.map(messageText).join("\n");
        const matches = [...text.matchAll(new RegExp(source, "g"))];
        return matches.at(-1)?.[1] ?? placeholder;
      });
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item)]));
    return value;
  };
  return {
    ...step,
    ...(step.input !== undefined ? { input: fill(step.input) as Record<string, unknown> } : {}),
    ...(step.tools !== undefined
      ? {
          tools: step.tools.map((tool) => ({
            ...tool,
            input: fill(tool.input) as Record<string, unknown> | undefined,
          })),
        }
      : {}),
  };
}
