// Transcript lines in Claude Code 2.1.332's shapes (payloads/transcript-sample.jsonl), trimmed to the keys read.
let n = 0;

export function toolCall(name: string, input: Record<string, unknown>): string[] {
  const id = `toolu_${++n}`;
  return [
    JSON.stringify({
      parentUuid: "p",
      isSidechain: false,
      type: "assistant",
      message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
    }),
    JSON.stringify({
      parentUuid: "p",
      isSidechain: false,
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
    }),
  ];
}

export function prompt(text: string, permissionMode = "default"): string {
  return JSON.stringify({
    parentUuid: "p",
    isSidechain: false,
    type: "user",
    message: { role: "user", content: text },
    permissionMode,
  });
}

export function boundary(trigger: "manual" | "auto", atIso: string): string {
  return JSON.stringify({
    parentUuid: null,
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    timestamp: atIso,
    compactMetadata: { trigger, preTokens: 70_000, postTokens: 2_600 },
  });
}

export function sessionStartContext(text: string): string {
  return JSON.stringify({
    parentUuid: "p",
    attachment: {
      type: "hook_additional_context",
      content: [text],
      hookName: "SessionStart",
      toolUseID: "SessionStart",
      hookEvent: "SessionStart",
    },
    type: "attachment",
  });
}
