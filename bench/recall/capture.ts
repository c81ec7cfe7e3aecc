import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { type RecordedRequest, requestText } from "../../test-fixtures/mock-api/server.ts";
import { requestSegments, type Segment } from "./segments.ts";

/** A file the first request after a compaction names, as it was when that request arrived. */
export interface NamedFile {
  path: string;
  label: string;
  /** carryover wrote it (its session dir, the changes log, its memory topic); else the agent or Claude Code did. */
  byCarryover: boolean;
  /** Only something carryover put in the request names it (a path in a hook context, a line in MEMORY.md). */
  namedByCarryover: boolean;
  content: string;
}

/** What the model had in reach right after one compaction. */
export interface Capture {
  /** 1 for the session's first compaction. */
  ordinal: number;
  compactionRequest: number;
  /** PreCompact's stdout as Claude Code appended it to the compaction prompt ("" without one). */
  steering: string;
  request: number;
  text: string;
  segments: Segment[];
  files: NamedFile[];
}

const MAX_FILE_BYTES = 512 * 1024;
const MAX_DIR_FILES = 50;
const INSTRUCTIONS = "\nAdditional Instructions:\n";
const INSTRUCTIONS_END = "\n\nREMINDER: Do NOT call any tools.";

/**
 * Watches the mock's requests as they arrive (MockApiOptions.onRequest): each compaction request's steering,
 * then the first main request after it (the one that opens with that compaction's summary), whose named
 * files are read right then, before the mock answers.
 */
export class CompactionCapture {
  readonly captures: Capture[] = [];
  private readonly compactions: Array<{ n: number; steering: string; captured: boolean }> = [];

  constructor(
    private readonly sandbox: { root: string; home: string },
    private readonly labelOf: (path: string) => string,
  ) {}

  get compactionCount(): number {
    return this.compactions.length;
  }

  onRequest(request: RecordedRequest): void {
    if (request.kind === "compaction") {
      this.compactions.push({ n: request.n, steering: steeringOf(requestText(request)), captured: false });
      return;
    }
    if (request.kind !== "main") return;
    const first = request.body?.messages?.[0];
    const opening =
      typeof first?.content === "string"
        ? first.content
        : (first?.content ?? []).map((block) => block.text ?? "").join("\n");
    const index = this.compactions.findIndex((c) => !c.captured && opening.includes(`MOCK SUMMARY ${c.n}:`));
    if (index < 0) return;
    const compaction = this.compactions[index]!;
    compaction.captured = true;
    const text = requestText(request);
    const segments = requestSegments(request.body, this.labelOf);
    this.captures.push({
      ordinal: index + 1,
      compactionRequest: compaction.n,
      steering: compaction.steering,
      request: request.n,
      text,
      segments,
      files: this.namedFiles(segments),
    });
  }

  private namedFiles(segments: readonly Segment[]): NamedFile[] {
    const files = new Map<string, NamedFile>();
    const add = (path: string, namedByCarryover: boolean) => {
      for (const file of this.read(path, namedByCarryover)) {
        const known = files.get(file.path);
        if (!known) files.set(file.path, file);
        else known.namedByCarryover &&= namedByCarryover;
      }
    };
    for (const segment of segments)
      for (const path of namedPaths(segment.text, this.sandbox)) add(path, segment.by === "carryover");
    // MEMORY.md's lines link its topic files relative to it; Claude Code loads MEMORY.md into the request.
    for (const memory of [...files.values()].filter((file) => basename(file.path) === "MEMORY.md")) {
      for (const match of memory.content.matchAll(/\]\(([^)\s/]+\.md)\)/g)) {
        add(join(dirname(memory.path), match[1]!), match[1]!.startsWith("carryover-session-"));
      }
    }
    return [...files.values()];
  }

  private read(path: string, namedByCarryover: boolean): NamedFile[] {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return [];
    }
    // Claude Code's own transcripts (the session's, a subagent's behind its task output file) hold the whole
    // history: Claude Code names them in every summary, and they are not what "one read away" measures.
    if (real.endsWith(".jsonl") && real.startsWith(join(this.sandbox.home, ".claude", "projects"))) return [];
    const stat = statSync(real);
    // Executables (carryover's hooks, named in the echo of a manual /compact) hold code, not the session's facts.
    if (stat.isFile() && (stat.mode & 0o111) !== 0) return [];
    // A directory is one read away only when one call lists what it holds: the Task tools' list (TaskList).
    if (stat.isDirectory() && real.startsWith(join(this.sandbox.home, ".claude", "tasks"))) {
      const content = readdirSync(real)
        .filter((name) => !name.startsWith(".") && statSync(join(real, name)).isFile())
        .slice(0, MAX_DIR_FILES)
        .map((name) => readBounded(join(real, name)))
        .join("\n");
      return [{ path: real, label: this.labelOf(real), byCarryover: false, namedByCarryover, content }];
    }
    return stat.isFile() ? [this.file(real, namedByCarryover)] : [];
  }

  private file(path: string, namedByCarryover: boolean): NamedFile {
    const content = readBounded(path);
    const byCarryover =
      path.startsWith(join(this.sandbox.home, ".claude", "carryover")) ||
      basename(path) === "CHANGES_SESSION.md" ||
      basename(path).startsWith("carryover-session-");
    return { path, label: this.labelOf(path), byCarryover, namedByCarryover, content };
  }
}

function readBounded(path: string): string {
  return readFileSync(path).subarray(0, MAX_FILE_BYTES).toString("utf8");
}

/** The absolute (or `~/`) paths a request's text names, under the sandbox: what the model could open. */
export function namedPaths(text: string, sandbox: { root: string; home: string }): string[] {
  const paths = new Set<string>();
  for (const match of text.matchAll(/(?:~\/|\/)[A-Za-z0-9._@%+=/-]+/g)) {
    const raw = match[0].replace(/[.,]+$/, "");
    const path = raw.startsWith("~/") ? join(sandbox.home, raw.slice(2)) : raw;
    if (path.startsWith(`${sandbox.root}/`)) paths.add(path.replace(/\/+$/, ""));
  }
  return [...paths];
}

/** PreCompact's stdout in a compaction prompt: Claude Code appends it under "Additional Instructions:". */
export function steeringOf(compactionText: string): string {
  const start = compactionText.lastIndexOf(INSTRUCTIONS);
  if (start < 0) return "";
  const end = compactionText.indexOf(INSTRUCTIONS_END, start);
  return compactionText.slice(start + INSTRUCTIONS.length, end < 0 ? undefined : end).trim();
}
