import { resolve } from "node:path";
import { CarryoverError, type Env, errorMessage, readFileHead, writeFileAtomic } from "@carryover/core";
import { buildReport } from "./build-report.ts";
import { bytes } from "./format.ts";
import { locateTranscript } from "./locate.ts";
import { wantsColor } from "./paint.ts";
import { progressIndicator } from "./progress.ts";
import { HTML_GENERATOR, renderHtml } from "./render-html.ts";
import { renderTerminal } from "./render-terminal.ts";

export const CONTEXT_USAGE = `Usage: carryover context [SESSION_ID | TRANSCRIPT] [--html FILE] [--json]

What fills a Claude Code session's context, estimated offline from its transcript (the analogue of
/context all), how usage grew request by request, every compaction, and what to do about it.

  SESSION_ID   a session id (its transcript is found under ~/.claude/projects/)
  TRANSCRIPT   a path to a transcript .jsonl
               default: the session this runs in, else the newest session of the current directory
  --html FILE  write a self-contained HTML page with charts to FILE
  --json       print the report as JSON
  -h, --help   show this help
`;

export interface CommandIO {
  env: Env;
  cwd: string;
  nowMs(): number;
  stdout: { isTTY: boolean; columns?: number | undefined; write(text: string): void };
  stderr: { isTTY: boolean; write(text: string): void };
}

export interface ContextOptions {
  /** A session id or a transcript path; default: the current session, else the directory's newest. */
  target?: string | undefined;
  htmlPath?: string | undefined;
  json: boolean;
}

/** `carryover context` as a bin: parses, runs, prints one line on failure; returns the exit code (2: bad usage). */
export async function contextMain(args: readonly string[], io: CommandIO): Promise<number> {
  let options: ContextOptions & { help: boolean };
  try {
    options = parseContextArgs(args);
  } catch (error) {
    io.stderr.write(`carryover context: ${errorMessage(error)}\n${CONTEXT_USAGE}`);
    return 2;
  }
  if (options.help) {
    io.stdout.write(CONTEXT_USAGE);
    return 0;
  }
  try {
    await runContextReport(options, io);
    return 0;
  } catch (error) {
    io.stderr.write(`carryover context: ${errorMessage(error)}\n`);
    return 1;
  }
}

/** Finds the transcript, streams it once, writes the report as asked; throws a CarryoverError on failure. */
export async function runContextReport(options: ContextOptions, io: CommandIO): Promise<void> {
  const progress = progressIndicator(io.stderr, io.nowMs);
  try {
    const transcript = locateTranscript(options.target, io.env, io.cwd);
    const report = await buildReport(transcript, { env: io.env, onProgress: progress.update });
    progress.done();
    if (options.htmlPath !== undefined) {
      const html = renderHtml(report, io.nowMs());
      writeReportFile(resolve(io.cwd, options.htmlPath), html);
      if (!options.json) io.stdout.write(`wrote ${options.htmlPath} (${bytes(Buffer.byteLength(html))})\n`);
    }
    if (options.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else if (options.htmlPath === undefined) {
      io.stdout.write(renderTerminal(report, { color: wantsColor(io.stdout.isTTY, io.env), columns: io.stdout.columns }));
    }
  } finally {
    progress.done();
  }
}

export function parseContextArgs(args: readonly string[]): ContextOptions & { help: boolean } {
  const parsed: ContextOptions & { help: boolean } = { json: false, help: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--json") parsed.json = true;
    else if (arg === "-h" || arg === "--help") parsed.help = true;
    else if (arg === "--html" || arg.startsWith("--html=")) {
      const value = arg === "--html" ? args[++i] : arg.slice("--html=".length);
      if (!value) throw new CarryoverError("BAD_INPUT", "--html needs a file name");
      parsed.htmlPath = value;
    } else if (arg.startsWith("-") && arg !== "-") throw new CarryoverError("BAD_INPUT", `unknown option ${arg}`);
    else if (parsed.target === undefined) parsed.target = arg;
    else throw new CarryoverError("BAD_INPUT", `one session id or transcript at most, got ${JSON.stringify(parsed.target)} and ${JSON.stringify(arg)}`);
  }
  return parsed;
}

/** Replaces an earlier report, never a file of anything else. */
function writeReportFile(path: string, html: string): void {
  const existing = readFileHead(path, 4096);
  if (existing && existing.totalBytes > 0 && !existing.bytes.toString("utf8").includes(`<meta name="generator" content="${HTML_GENERATOR}">`)) {
    throw new CarryoverError("EXISTS", `${path} exists and is not a carryover context report; choose another file or remove it`);
  }
  writeFileAtomic(path, html, 0o644);
}
