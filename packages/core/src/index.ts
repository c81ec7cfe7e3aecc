// What the hooks, the skill, the context report and the CLI share, by concern. Lower folders never import
// higher ones: errors and env, then text, fs, claude, transcript, workers, session, schema, config, runtime.

export { autoCompactTokens } from "./claude/auto-compact.ts";
export { autoMemoryDir, isAutoMemoryEnabled } from "./claude/auto-memory.ts";
export { modelWindowTokens } from "./claude/model-window.ts";
export {
  binDir,
  carryoverRoot,
  checkCarryoverRoot,
  claudeDir,
  claudeTempDir,
  ensureCarryoverDir,
  ensureLockDir,
  logPath,
  plansDir,
  projectConfigPath,
  projectsDir,
  refusedRootLogPath,
  tasksDir,
  transcriptPath,
  userConfigPath,
} from "./claude/paths.ts";
export { assertSafeSessionId, isSafeSessionId } from "./claude/session-id.ts";
export { readAutoCompactSettings } from "./claude/settings.ts";
export { projectSlug } from "./claude/slug.ts";
export { contextTokensOf, levelPercent, type UsagePercents, type UsageReading, usagePercents } from "./claude/usage.ts";
export {
  type Config,
  checkConfigValue,
  configEnvName,
  configKeyLabel,
  loadConfig,
} from "./config/load.ts";
export { SHARED_KEYS } from "./config/shared.ts";
export { type ConfigTable, expects, fromText } from "./config/table.ts";
export { type Env, homeDir, isTruthy, tmpDir } from "./env.ts";
export { CarryoverError, errorMessage } from "./errors.ts";
export { dirNames, readFileNoFollow, readJsonNoFollow, writeFileAtomic } from "./fs/atomic.ts";
export { readFileHead } from "./fs/file-head.ts";
export { withFileLock } from "./fs/file-lock.ts";
export { parseJsonText } from "./fs/json-text.ts";
export { ensurePrivateDir } from "./fs/private-dir.ts";
export type {
  HookContext,
  HookDefinition,
  HookIO,
  ProbeContext,
  StatusLineContext,
  StatusLineDefinition,
} from "./runtime/definition.ts";
export { main, runHook } from "./runtime/main.ts";
export { contextOutput, type HookJsonOutput, MAX_CONTEXT_CHARS } from "./runtime/output.ts";
export { processStartMs } from "./runtime/process-start.ts";
export { runStatusLine, statusLineMain } from "./runtime/statusline.ts";
export { isDebug, isHookEnabled } from "./runtime/switches.ts";
export {
  array,
  boolean,
  type Infer,
  literal,
  looseObject,
  nullable,
  number,
  oneOf,
  optional,
  record,
  string,
  unknown,
} from "./schema/guards.ts";
export type {
  PostCompactInput,
  PreCompactInput,
  SessionStartInput,
  UserPromptSubmitInput,
} from "./schema/payloads.ts";
export {
  COMPACTED_MARKER,
  type CompactionFacts,
  hasPendingCompaction,
  markCompacted,
  RECOVERY_DELIVERED_MARKER,
  recordRecoveryDelivered,
  SAME_COMPACTION_WINDOW_MS,
  takePendingCompaction,
} from "./session/compaction.ts";
export {
  compactionStartBefore,
  readCompactionStarts,
  recordCompactionStart,
} from "./session/compaction-starts.ts";
export {
  loadLastCompaction,
  predatesCompaction,
  recordCompaction,
} from "./session/last-compaction.ts";
export { appendLedger, type LedgerEntry, ledgerPath, readLedger, summaryOf } from "./session/ledger.ts";
export {
  ANNOUNCED_MARKER_PREFIX,
  announcedMarkerName,
  highestLevelReached,
  LEVEL_MARKER_PREFIX,
  levelMarkerName,
  rearmLevels,
  rearmLevelsBelow,
  sameLevelBands,
  syncLevelMarkers,
} from "./session/levels.ts";
export {
  createMarkerOnce,
  hasMarker,
  listMarkers,
  markerPath,
  readMarker,
  removeMarker,
  writeMarker,
} from "./session/markers.ts";
export {
  carryoverOwnPaths,
  changesLogPath,
  compactStateCompanions,
  compactStatePath,
  defaultStateDir,
  ensureCompactStateDir,
  mechanicalSnapshotPath,
} from "./session/paths.ts";
export {
  currentUsage,
  forgetReading,
  isFresh,
  loadReading,
  recordReading,
  transcriptUsage,
} from "./session/reading.ts";
export { openSession, type Session } from "./session/session.ts";
export {
  type CompactState,
  isMechanicalSnapshot,
  isUnfilledState,
  MECHANICAL_SNAPSHOT_MARK,
  readCompactState,
  renderState,
  STATE_HEADERS,
  sectionText,
  stateTemplate,
  verifyState,
} from "./session/state-file.ts";
export { orderStateByCount, readStateStamp, type StateOrder, stampCompactState } from "./session/state-order.ts";
export { capText } from "./text/cap.ts";
export { fillTemplate } from "./text/template.ts";
export { formatTokens } from "./text/tokens.ts";
export { forEachCandidateLine, needle } from "./transcript/candidates.ts";
export { conversationCollector } from "./transcript/conversation.ts";
export type { Activity, CompactionRecord, TaskItem, TodoItem, TranscriptFacts, Worker } from "./transcript/facts.ts";
export { parseTranscriptLine, type TranscriptLine } from "./transcript/line.ts";
export { forEachTranscriptLine } from "./transcript/lines.ts";
export { plansCollector } from "./transcript/plans.ts";
export { MAX_SCAN_BYTES, scanTranscript, scanTranscriptFor, scanWorkers } from "./transcript/scan.ts";
export { workersCollector } from "./transcript/workers.ts";
export { type CompactionWorkers, compactionWorkers, paneLines, workerLine } from "./workers/describe.ts";
export { readTmuxWindow, type TmuxWindow } from "./workers/panes.ts";
