import { resolve } from "node:path";
import { CarryoverError, type Env, readFileHead, writeFileAtomic } from "@carryover/core";
import { buildReport } from "./build-report.ts";
import { bytes } from "./format.ts";
import { locateTranscript } from "./locate.ts";
import { wantsColor } from "./paint.ts";
import { progressIndicator } from "./progress.ts";
import { HTML_GENERATOR, renderHtml } from "./render-html.ts";
import { renderTerminal } from "./render-terminal.ts";

/** The help text after the usage line `carryover context [SESSION_ID | TRANSCRIPT] [--html FILE] [--json]`. */
export const CONTEXT_HELP = `\
What fills a Claude Code session's context, estimated offline from its transcript (the analogue of
/context all), how usage grew request by request, every compaction, what the session did since the last
one, and what to do about it.

  SESSION_ID   a session id (its transcript is found under ~/.claude/projects/)
  TRANSCRIPT   a path to a transcript .jsonl
               default: the session this runs in, else the newest session of the current directory
  --html FILE  write a self-contained HTML page with charts to FILE (replaces only an earlier report)
  --json       print the report as JSON`;

export interface CommandIO {
  env: Env;
  cwd: string;
  /** When the report is made (stamped on the HTML page). */
  nowMs: number;
  stdout: { isTTY: boolean; columns?: number | undefined; write(text: string): void };
  stderr: { isTTY: boolean; write(text: string): void };
}

export interface ContextOptions {
  /** A session id or a transcript path; default: the current session, else the directory's newest. */
  target?: string | undefined;
  htmlPath?: string | undefined;
  json: boolean;
}

/** Finds the transcript, streams it once, writes the report as asked; throws a CarryoverError on failure. */
export async function runContextReport(options: ContextOptions, io: CommandIO): Promise<void> {
  const progress = progressIndicator(io.stderr);
  try {
    const transcript = locateTranscript(options.target, io.env, io.cwd);
    const report = await buildReport(transcript, { env: io.env, onProgress: progress.update });
    progress.done();
    if (options.htmlPath !== undefined) {
      const html = renderHtml(report, io.nowMs);
      writeReportFile(resolve(io.cwd, options.htmlPath), html);
      if (!options.json) io.stdout.write(`wrote ${options.htmlPath} (${bytes(Buffer.byteLength(html))})\n`);
    }
    if (options.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else if (options.htmlPath === undefined) {
      io.stdout.write(
        renderTerminal(report, { color: wantsColor(io.stdout.isTTY, io.env), columns: io.stdout.columns }),
      );
    }
  } finally {
    progress.done();
  }
}

/** Replaces an earlier report, never a file of anything else. */
function writeReportFile(path: string, html: string): void {
  const existing = readFileHead(path, 4096);
  if (
    existing &&
    existing.totalBytes > 0 &&
    !existing.bytes.toString("utf8").includes(`<meta name="generator" content="${HTML_GENERATOR}">`)
  ) {
    throw new CarryoverError(
      "EXISTS",
      `${path} exists and is not a carryover context report; choose another file or remove it`,
    );
  }
  writeFileAtomic(path, html, 0o644);
}
