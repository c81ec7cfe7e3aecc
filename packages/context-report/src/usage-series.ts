import type { CompactionMark, TurnUsage, UsagePoint } from "./model.ts";
import { oneLine } from "./tool-calls.ts";

export interface ResponseUsage {
  input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens?: number | null;
}

const PROMPT_PREVIEW_CHARS = 60;

/** Usage per response, per turn, and the compactions between them, in transcript order. */
export class UsageSeries {
  readonly points: UsagePoint[] = [];
  readonly turns: TurnUsage[] = [];
  readonly compactions: CompactionMark[] = [];
  private lastMessageId: string | undefined;
  /** What came last: a response or a compaction (the context's newest measure). */
  private last: "response" | "compaction" | null = null;

  prompt(text: string, atMs: number | undefined): void {
    this.turns.push({
      turn: this.turns.length + 1,
      prompt: oneLine(text, PROMPT_PREVIEW_CHARS),
      atMs,
      requests: 0,
      endContextTokens: null,
      peakContextTokens: 0,
      outputTokens: 0,
    });
  }

  /** Claude Code writes a line per content block of a response, each with the response's usage: counted once per id. */
  response(messageId: string | undefined, usage: ResponseUsage, atMs: number | undefined): void {
    const point = messageId !== undefined && messageId === this.lastMessageId ? this.points.at(-1) : undefined;
    const output = usage.output_tokens ?? 0;
    if (point) {
      const added = Math.max(0, output - point.outputTokens);
      point.outputTokens += added;
      this.turns.at(-1)!.outputTokens += added;
      return;
    }
    this.lastMessageId = messageId;
    this.last = "response";
    if (this.turns.length === 0) this.prompt("", atMs);
    const turn = this.turns.at(-1)!;
    const inputTokens = usage.input_tokens ?? 0;
    const cacheCreationTokens = usage.cache_creation_input_tokens ?? 0;
    const cacheReadTokens = usage.cache_read_input_tokens ?? 0;
    const contextTokens = inputTokens + cacheCreationTokens + cacheReadTokens;
    this.points.push({
      request: this.points.length + 1,
      turn: turn.turn,
      atMs,
      contextTokens,
      inputTokens,
      cacheCreationTokens,
      cacheReadTokens,
      outputTokens: output,
    });
    turn.requests += 1;
    turn.endContextTokens = contextTokens;
    turn.peakContextTokens = Math.max(turn.peakContextTokens, contextTokens);
    turn.outputTokens += output;
  }

  compaction(
    trigger: string,
    preTokens: number | null,
    postTokens: number | null,
    atMs: number | undefined,
    boundary = true,
  ): void {
    this.compactions.push({ trigger, afterRequest: this.points.length, atMs, preTokens, postTokens, boundary });
    this.lastMessageId = undefined;
    this.last = "compaction";
  }

  /** The newest context after the last response, in tokens; null when there is none yet. */
  lastContext(): number | null {
    return this.points.at(-1)?.contextTokens ?? null;
  }

  /** The context now as measured: the newest response's, or the newest compaction's postTokens (null when unknown). */
  measured(): { tokens: number; source: "response" | "compaction" } | null {
    if (this.last === "compaction") {
      const post = this.compactions.at(-1)!.postTokens;
      return post === null ? null : { tokens: post, source: "compaction" };
    }
    if (this.last === "response") return { tokens: this.points.at(-1)!.contextTokens, source: "response" };
    return null;
  }
}
