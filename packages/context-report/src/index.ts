export { adviseOn } from "./advice.ts";
export { type BuildOptions, buildReport } from "./build-report.ts";
export { type CollectedContext, ContextCollector } from "./collector.ts";
export { type CommandIO, CONTEXT_HELP, type ContextOptions, runContextReport } from "./command.ts";
export { locateTranscript } from "./locate.ts";
export {
  type Advice,
  CATEGORY_LABELS,
  CATEGORY_ORDER,
  type CategoryEstimate,
  type CategoryId,
  type CompactionMark,
  type ContextItem,
  type ContextReport,
  type TurnUsage,
  type UsagePoint,
} from "./model.ts";
export { HTML_GENERATOR, renderHtml } from "./render-html.ts";
export { renderTerminal, type TerminalOptions } from "./render-terminal.ts";
export { type ReportSettings, summarize } from "./summarize.ts";
