import { writeFileSync } from "node:fs";

/**
 * Hand-made transcript lines in the shapes Claude Code 2.1.332 writes (`../payloads/transcript-sample.jsonl`),
 * with only the fields readers use, for tests that need a specific story.
 */
type Line = Record<string, unknown>;

const AT = Date.parse("2026-11-29T17:13:23.000Z");
let tick = 0;
const timestamp = () => new Date(AT + 1_000 * tick++).toISOString();

export function promptLine(text: string, permissionMode = "default"): Line {
  return {
    parentUuid: null,
    isSidechain: false,
    promptId: "p",
    type: "user",
    message: { role: "user", content: text },
    permissionMode,
    timestamp: timestamp(),
  };
}

/** An assistant line with one tool_use block; calls sharing `messageId` form one parallel batch. */
export function callLine(
  id: string,
  name: string,
  input: Record<string, unknown>,
  messageId = `msg_${id}`,
  isSidechain = false,
): Line {
  return {
    parentUuid: "x",
    isSidechain,
    message: { id: messageId, type: "message", role: "assistant", content: [{ type: "tool_use", id, name, input }] },
    type: "assistant",
    timestamp: timestamp(),
  };
}

/** The user line carrying a tool's result; an error has `is_error: true` and `toolUseResult: "Error: …"`. */
export function resultLine(id: string, content: string, isError = false, toolUseResult: unknown = content): Line {
  return {
    parentUuid: "x",
    isSidechain: false,
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", content, is_error: isError, tool_use_id: id }] },
    timestamp: timestamp(),
    toolUseResult: isError ? `Error: ${content}` : toolUseResult,
  };
}

export function boundaryLine(trigger: "manual" | "auto", preTokens: number, at = timestamp()): Line {
  return {
    parentUuid: null,
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    compactMetadata: { trigger, preTokens, postTokens: 2_000 },
    timestamp: at,
  };
}

/** The user line Claude Code writes right after a compact_boundary: the summary the next conversation opens with. */
export function summaryLine(summary: string, at = timestamp()): Line {
  return {
    parentUuid: "x",
    isSidechain: false,
    type: "user",
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
    message: {
      role: "user",
      content:
        "This session is being continued from a previous conversation that ran out of context. The summary below " +
        `covers the earlier portion of the conversation.\n\nSummary:\n${summary}\n\n` +
        "If you need specific details from before compaction, read the transcript.",
    },
    timestamp: at,
  };
}

/** Writes lines (objects or raw strings) as JSONL; `tail` ends the file ("" leaves the last line unterminated). */
export function writeTranscript(path: string, lines: readonly (Line | string)[], tail = "\n"): string {
  writeFileSync(path, lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + tail);
  return path;
}
