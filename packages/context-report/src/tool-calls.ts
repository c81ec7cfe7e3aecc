/** A tool call the assistant made, remembered until its result (and any skill body) arrives. */
export interface ToolCall {
  name: string;
  /** The file, command, pattern or URL it was about; "" when none. */
  target: string;
}

// Results follow their calls within a few lines; a cap keeps a session of interrupted calls bounded.
const MAX_OPEN_CALLS = 4_096;
const MAX_TARGET_CHARS = 80;
const TARGET_KEYS = [
  "file_path",
  "notebook_path",
  "path",
  "command",
  "pattern",
  "url",
  "query",
  "skill",
  "description",
  "prompt",
];

export class ToolCalls {
  private readonly calls = new Map<string, ToolCall>();

  add(id: string, name: string, input: unknown): ToolCall {
    const call = { name, target: targetOf(input) };
    this.calls.set(id, call);
    if (this.calls.size > MAX_OPEN_CALLS) this.calls.delete(this.calls.keys().next().value!);
    return call;
  }

  get(id: unknown): ToolCall | undefined {
    return typeof id === "string" ? this.calls.get(id) : undefined;
  }
}

function targetOf(input: unknown): string {
  if (input === null || typeof input !== "object") return "";
  const record = input as Record<string, unknown>;
  for (const key of TARGET_KEYS) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) return oneLine(value, MAX_TARGET_CHARS);
  }
  return "";
}

/** The first line of `text`, whitespace collapsed, cut to `maxChars` with an ellipsis. */
export function oneLine(text: string, maxChars: number): string {
  const line = text.trim().split("\n", 1)[0]!.replace(/\s+/g, " ");
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}
