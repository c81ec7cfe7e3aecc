import { forEachCandidateLine, needle, parseTranscriptLine, type TranscriptLine } from "@carryover/core";

/** found / absent after the last compact_boundary; unknown when there is no transcript or no boundary in reach. */
export type HookContextRecord = "found" | "absent" | "unknown";

export interface HookContextQuery {
  /** `hookEvent` of the attachment: "SessionStart", "UserPromptSubmit". */
  hookEvent: string;
  /** Text the context must contain. */
  needle: string;
  /** Read at most the file's last `maxBytes`. */
  maxBytes?: number;
}

const NEEDLES = [needle('"compact_boundary"', "compact_b"), needle('"hook_additional_context"', "additional_c")];
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Whether a hook's additionalContext holding `needle` was recorded after the transcript's last
 * compact_boundary. Claude Code 2.1.332 stores a delivered context as an attachment line
 * (`hook_additional_context`, with `hookEvent` and `content: [text]`) and writes the boundary before the
 * SessionStart(compact) context; a context that was dropped (claude-code #28305) leaves no line.
 */
export async function hookContextSinceLastBoundary(path: string, query: HookContextQuery): Promise<HookContextRecord> {
  let sawBoundary = false;
  let found = false;
  try {
    await forEachCandidateLine(path, {
      needles: NEEDLES,
      maxBytes: query.maxBytes ?? DEFAULT_MAX_BYTES,
      onLine: (text) => {
        const line = parseTranscriptLine(text);
        if (line?.type === "system" && line.subtype === "compact_boundary") {
          sawBoundary = true;
          found = false;
        } else if (line?.type === "attachment" && isContext(line.attachment, query)) {
          found = true;
        }
      },
    });
  } catch {
    return "unknown";
  }
  if (!sawBoundary) return "unknown";
  return found ? "found" : "absent";
}

function isContext(attachment: TranscriptLine["attachment"], query: HookContextQuery): boolean {
  if (attachment?.type !== "hook_additional_context" || attachment.hookEvent !== query.hookEvent) return false;
  const parts = Array.isArray(attachment.content) ? attachment.content : [attachment.content];
  return parts.some((part) => typeof part === "string" && part.includes(query.needle));
}
