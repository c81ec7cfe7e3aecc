import { parseTranscriptLine, type TranscriptLine } from "@carryover/core";
import { attachmentContributions } from "./attachment-contributions.ts";
import { assistantContributions, type UserLine, userContributions } from "./message-contributions.ts";
import type { Contribution } from "./model.ts";
import { ContextSegment } from "./segment.ts";
import { shapeContributions } from "./shape-contributions.ts";
import { ToolCalls } from "./tool-calls.ts";
import { UsageSeries } from "./usage-series.ts";

/** What one pass over a transcript gathered, before it is sized and judged. */
export interface CollectedContext {
  contributions: Iterable<Contribution>;
  /** The newest request shape's system prompt and tools; null when the transcript has none. */
  shape: Contribution[] | null;
  /** The first response's context and the estimated characters of the messages it was sent with. */
  firstResponse: { contextTokens: number; messageChars: number } | null;
  series: UsageSeries;
  sessionId: string | null;
  cwd: string | null;
  model: string | null;
  badLines: number;
}

// Claude Code's stand-in for responses it made up itself (errors such as "Prompt is too long").
const SYNTHETIC_MODEL = "<synthetic>";

/** Turns transcript lines, in file order, into what the context holds now and how it grew. */
export class ContextCollector {
  private readonly segment = new ContextSegment();
  private readonly calls = new ToolCalls();
  private readonly series = new UsageSeries();
  private shape: Contribution[] | null = null;
  private firstResponse: CollectedContext["firstResponse"] = null;
  private charsBeforeFirstResponse = 0;
  private sessionId: string | null = null;
  private cwd: string | null = null;
  private model: string | null = null;
  private badLines = 0;
  /** A compact_boundary was read and its summary line has not come yet. */
  private awaitingSummary = false;

  line(text: string): void {
    const line = parseTranscriptLine(text);
    if (line === null) {
      this.badLines += 1;
      return;
    }
    if (line.isSidechain === true) return;
    if (typeof line.sessionId === "string") this.sessionId = line.sessionId;
    if (typeof line.cwd === "string") this.cwd = line.cwd;
    const atMs = typeof line.timestamp === "string" ? Date.parse(line.timestamp) || undefined : undefined;
    switch (line.type) {
      case "assistant":
        this.assistant(line, atMs);
        return;
      case "user":
        this.user(line, atMs);
        return;
      case "attachment":
        if (line.attachment && typeof line.attachment === "object") {
          this.add(
            line.uuid,
            attachmentContributions({
              attachment: line.attachment as Record<string, unknown>,
              rendered: line.rendered,
            }),
          );
        }
        return;
      case "system":
        if (line.subtype === "compact_boundary") this.boundary(line, atMs);
        return;
      case "api-request-shape":
        if (line.shape && typeof line.shape === "object") this.shape = shapeContributions(line.shape);
        return;
    }
  }

  finish(): CollectedContext {
    return {
      contributions: this.segment.contributions(),
      shape: this.shape,
      firstResponse: this.firstResponse,
      series: this.series,
      sessionId: this.sessionId,
      cwd: this.cwd,
      model: this.model,
      badLines: this.badLines,
    };
  }

  private add(uuid: unknown, contributions: Contribution[]): void {
    this.segment.add(uuid, contributions);
    if (!this.firstResponse)
      for (const contribution of contributions) this.charsBeforeFirstResponse += contribution.chars;
  }

  private assistant(line: TranscriptLine, atMs: number | undefined): void {
    const message = line.message;
    if (!message) return;
    const usage = message.usage;
    if (usage && message.model !== SYNTHETIC_MODEL) {
      if (typeof message.model === "string") this.model = message.model;
      this.series.response(typeof message.id === "string" ? message.id : undefined, usage, atMs);
      if (!this.firstResponse) {
        this.firstResponse = {
          contextTokens: this.series.points[0]!.contextTokens,
          messageChars: this.charsBeforeFirstResponse,
        };
      }
    }
    this.add(line.uuid, assistantContributions(message.content, this.calls));
  }

  private user(line: TranscriptLine, atMs: number | undefined): void {
    if (line.isCompactSummary === true) this.summary(atMs);
    const content = line.message?.content;
    const userLine: UserLine = {
      content,
      isMeta: line.isMeta,
      isCompactSummary: line.isCompactSummary,
      sourceToolUseID: line.sourceToolUseID,
    };
    this.add(line.uuid, userContributions(userLine, this.calls));
    const prompt = promptText(line);
    if (prompt !== null) this.series.prompt(prompt, atMs);
  }

  private boundary(line: TranscriptLine, atMs: number | undefined): void {
    const meta = line.compactMetadata ?? {};
    const preserved = meta.preservedMessages?.allUuids ?? meta.preservedMessages?.uuids;
    this.segment.compact(Array.isArray(preserved) ? preserved : []);
    const tokens = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
    this.series.compaction(
      typeof meta.trigger === "string" ? meta.trigger : "unknown",
      tokens(meta.preTokens),
      tokens(meta.postTokens),
      atMs,
    );
    this.awaitingSummary = true;
  }

  /** A summary line: after a boundary, its summary; alone (Claude Code 1.0.5x to 1.0.7x), the compaction itself. */
  private summary(atMs: number | undefined): void {
    if (this.awaitingSummary) {
      this.awaitingSummary = false;
      return;
    }
    this.segment.compact([]);
    this.series.compaction("unknown", this.series.lastContext(), null, atMs, false);
  }
}

/** The text a person typed: no tool results, meta lines, summaries or slash-command echoes. */
function promptText(line: TranscriptLine): string | null {
  if (line.isMeta === true || line.isCompactSummary === true) return null;
  const content = line.message?.content;
  let text: string;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    const blocks = content as Array<{ type?: unknown; text?: unknown }>;
    if (blocks.some((block) => block?.type === "tool_result")) return null;
    text = blocks
      .map((block) => (block?.type === "text" && typeof block.text === "string" ? block.text : ""))
      .join("\n");
  } else return null;
  if (!text.trim() || /^\s*<(local-command-|command-)/.test(text) || text.startsWith("[Request interrupted"))
    return null;
  return text;
}
