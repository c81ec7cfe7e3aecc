export { type BuildOptions, buildReport } from "./build-report.ts";
export { type CommandIO, CONTEXT_HELP, type ContextOptions, runContextReport } from "./command.ts";
export type {
  Advice,
  CategoryEstimate,
  CategoryId,
  CompactionMark,
  ContextItem,
  ContextReport,
  TurnUsage,
  UsagePoint,
} from "./model.ts";
export { HTML_GENERATOR, renderHtml } from "./render-html.ts";
export { renderTerminal, type TerminalOptions } from "./render-terminal.ts";
