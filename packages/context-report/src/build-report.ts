import { forEachTranscriptLine } from "@carryover/core";
import { ContextCollector } from "./collector.ts";
import type { ContextReport } from "./model.ts";
import { type ReportSettings, summarize } from "./summarize.ts";
import { readWork } from "./work.ts";

export interface BuildOptions extends ReportSettings {
  onProgress?(bytesRead: number, totalBytes: number): void;
}

// Every line the report reads holds one of these; request bookkeeping and prompt snapshots (a copy of
// the system prompt per turn) are dropped from their first bytes, undecoded. 2.1.332 line shapes.
const NEEDLES = [
  '"type":"user"',
  '"type":"assistant"',
  '"type":"attachment"',
  '"compact_boundary"',
  '{"type":"api-request-shape"',
];
const SKIP_HEADS = [
  '{"type":"api-request-blob"',
  '{"type":"api-request",',
  '"attachment":{"type":"prompt_snapshot"',
  '"attachment":{"type":"deferred_tools_record"',
];

/**
 * Streams the transcript for the context, then has core read what the session did (its pre-filter reads a
 * fraction of the bytes); throws when the file cannot be read.
 */
export async function buildReport(transcriptPath: string, options: BuildOptions): Promise<ContextReport> {
  const collector = new ContextCollector();
  const stats = await forEachTranscriptLine(transcriptPath, {
    needles: NEEDLES,
    skipHeads: SKIP_HEADS,
    onLine: (line) => collector.line(line),
    onProgress: options.onProgress,
  });
  const collected = collector.finish();
  const work = await readWork({ transcriptPath, env: options.env, cwd: collected.cwd });
  return summarize(collected, { path: transcriptPath, bytes: stats.totalBytes, work }, options);
}
