import type { Collector, CollectorRun, FileReading, LineAt, ScanContext } from "./_collector.ts";
import { textOf } from "./_content.ts";
import { userText } from "./_request.ts";
import { summaryBody } from "./_summary.ts";
import { needle } from "./candidates.ts";
import type { CompactionRecord, TranscriptFacts } from "./facts.ts";
import type { TranscriptLine } from "./line.ts";
import { readUsageBefore } from "./tail.ts";

type ConversationFacts = Pick<TranscriptFacts, "lastUserRequest" | "planMode" | "compactions">;

/** The session's own turns: the user's last real request, plan mode, and the compactions with their summaries. */
export const conversationCollector: Collector<ConversationFacts, Conversation> = {
  start: (scan) => new Conversation(scan),
};

const USER_CONTENT_BYTES = Buffer.byteLength('"role":"user","content":');
const TEXT_BLOCKS = [Buffer.from('[{"type":"text"'), Buffer.from('[{"type":"image"')];
const QUOTE = 0x22;

function isTextContent(region: Buffer, at: number): boolean {
  return (
    region[at] === QUOTE ||
    TEXT_BLOCKS.some((start) => region.compare(start, 0, start.length, at, at + start.length) === 0)
  );
}

export class Conversation implements CollectorRun<ConversationFacts> {
  private lastRequest: string | null = null;
  /** A slash command that may yet turn out to be local (its output follows), and the request before it. */
  private command: { text: string; before: string | null } | null = null;
  private planMode = false;
  /** The compactions so far, oldest first. */
  readonly compactions: CompactionRecord[] = [];
  /** A boundary whose summary line has not come yet. */
  private awaitingSummary: CompactionRecord | null = null;
  /** Byte offsets of summary lines that had no boundary, for their preTokens. */
  private readonly boundarylessAt = new Map<CompactionRecord, number>();
  private readonly beforeCompaction: Array<() => void> = [];

  constructor(private readonly scan: ScanContext) {}

  /** Calls `listener` at each compaction, before it counts. */
  onCompaction(listener: () => void): void {
    this.beforeCompaction.push(listener);
  }

  reading(): FileReading {
    return {
      needles: [
        // A prompt, a command's echo, bash-mode input or a compaction summary: string or text content. Tool results,
        // whose content starts with a tool_result block, are most user lines and are passed over. (Each needle is
        // a pass over every chunk: what this one finds needs no other.)
        needle('"role":"user","content":', '"role":"user","content":', {
          accept: (region, at) => isTextContent(region, at + USER_CONTENT_BYTES),
        }),
        needle('"compactMetadata":', "Metada"),
        needle('"permissionMode":"', 'Mode":'),
      ],
    };
  }

  line(line: TranscriptLine, at: LineAt): void {
    if (line.type === "user") this.user(line, at);
    else if (line.type === "system") {
      if (at.file === 0 && line.subtype === "compact_boundary") this.boundary(line, at);
    } else if (line.type === "permission-mode") this.mode(line.permissionMode ?? line.mode);
  }

  finish(): ConversationFacts {
    for (const [record, offset] of this.boundarylessAt) record.preTokens = readUsageBefore(this.scan.path, offset);
    return { lastUserRequest: this.lastRequest, planMode: this.planMode, compactions: this.compactions };
  }

  private user(line: TranscriptLine, at: LineAt): void {
    if (at.file > 0 || line.isSidechain === true) return;
    if (line.isCompactSummary === true) {
      this.summary(line, at);
      return;
    }
    if (line.isMeta === true || line.isVisibleInTranscriptOnly === true) return;
    if (typeof line.permissionMode === "string") this.mode(line.permissionMode);
    const read = userText(textOf(line.message?.content));
    if (read.kind === "local-output") {
      if (this.command) this.lastRequest = this.command.before;
      this.command = null;
      return;
    }
    if (read.kind === "none") return;
    this.awaitingSummary = null;
    this.command = read.kind === "command" ? { text: read.text, before: this.lastRequest } : null;
    this.lastRequest = read.text;
  }

  private boundary(line: TranscriptLine, at: LineAt): void {
    const meta = line.compactMetadata ?? {};
    const record: CompactionRecord = {
      line: at.line ?? null,
      boundary: true,
      trigger: typeof meta.trigger === "string" ? meta.trigger : "unknown",
      preTokens: tokens(meta.preTokens),
      postTokens: tokens(meta.postTokens),
      atMs: at.atMs ?? null,
      summary: null,
    };
    this.compacted(record);
    this.awaitingSummary = record;
  }

  private summary(line: TranscriptLine, at: LineAt): void {
    const text = summaryBody(textOf(line.message?.content)) || null;
    if (this.awaitingSummary) {
      this.awaitingSummary.summary = text;
      this.awaitingSummary = null;
      return;
    }
    // 1.0.5x to 1.0.7x wrote no boundary: the summary line is the compaction.
    const record: CompactionRecord = {
      line: at.line ?? null,
      boundary: false,
      trigger: "unknown",
      preTokens: null,
      postTokens: null,
      atMs: at.atMs ?? null,
      summary: text,
    };
    this.compacted(record);
    this.boundarylessAt.set(record, at.offset);
  }

  private compacted(record: CompactionRecord): void {
    for (const listener of this.beforeCompaction) listener();
    this.compactions.push(record);
  }

  private mode(value: unknown): void {
    if (typeof value === "string") this.planMode = value === "plan";
  }
}

function tokens(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
