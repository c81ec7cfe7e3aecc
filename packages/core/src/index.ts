export { appendLine, readFileNoFollow, writeFileAtomic } from "./atomic.ts";
export {
  AUTO_COMPACT_BUFFER_TOKENS,
  type AutoCompactSettings,
  autoCompactTokens,
  MIN_AUTO_COMPACT_WINDOW,
  SUMMARY_RESERVE_TOKENS,
} from "./auto-compact.ts";
export { isAutoMemoryEnabled } from "./auto-memory.ts";
export { claudeSettingsPaths, layeredSetting, readAutoCompactSettings } from "./claude-settings.ts";
export {
  claimRecovery,
  COMPACTED_MARKER,
  type CompactionFacts,
  hasPendingCompaction,
  markCompacted,
  rearmLevels,
  RECOVERY_CLAIM_PREFIX,
  RECOVERY_DELIVERED_MARKER,
  recordRecoveryDelivered,
  takePendingCompaction,
} from "./compaction.ts";
export { configDescription } from "./config-descriptions.ts";
export { type ConfigKey, type ConfigSection, configKeys, type SectionConfig, sectionKeys } from "./config-keys.ts";
export { checkConfigValue, type Config, configEnvName, configKeyLabel, fastPathConfig, loadConfig } from "./config.ts";
export { type Env, homeDir, isTruthy, tmpDir } from "./env.ts";
export { CarryoverError, type CarryoverErrorCode, errorMessage } from "./errors.ts";
export { type FileHead, readFileHead } from "./file-head.ts";
export { type FileLockOptions, withFileLock } from "./file-lock.ts";
export { findGitRoot } from "./git-root.ts";
export { parseJsonText } from "./json-text.ts";
export { appendLedger, type LedgerEntry, ledgerPath, readLedger, summaryOf } from "./ledger.ts";
export {
  ANNOUNCED_MARKER_PREFIX,
  announcedMarkerName,
  highestLevelReached,
  LEVEL_MARKER_PREFIX,
  levelMarkerName,
  levelsReached,
} from "./levels.ts";
export { rearmLevelsBelow, REARM_MARGIN_PERCENT, sameLevelBands, syncLevelMarkers } from "./level-markers.ts";
export { logLine } from "./log.ts";
export {
  consumeMarker,
  createMarkerOnce,
  hasMarker,
  listMarkers,
  type Marker,
  type MarkerReadOptions,
  markerPath,
  readMarker,
  removeMarker,
  writeMarker,
} from "./markers.ts";
export {
  checkMemoryIndex,
  MEMORY_INDEX_MAX_CHARS,
  MEMORY_INDEX_MAX_LINES,
  type MemoryIndexCheck,
  type MemoryIndexLoad,
  measureMemoryIndex,
  memoryIndexWarning,
} from "./memory-index.ts";
export { modelWindowTokens } from "./model-window.ts";
export { capText, contextOutput, type HookJsonOutput, type HookResult, MAX_CONTEXT_CHARS, mergeOutputs } from "./output.ts";
export {
  autoMemoryDir,
  binDir,
  carryoverRoot,
  codeCacheDir,
  codeCacheFiles,
  claudeDir,
  compactStatePath,
  defaultStateDir,
  ensureSessionDir,
  logPath,
  mechanicalSnapshotPath,
  plansDir,
  projectConfigPath,
  projectsDir,
  sessionDirPath,
  tasksDir,
  transcriptPath,
  userConfigPath,
} from "./paths.ts";
export { projectPinnedPath, userPinnedPath } from "./pinned.ts";
export { type PreCompactJournal, preCompactJournalPath, readPreCompactJournal, writePreCompactJournal } from "./pre-compact-journal.ts";
export { assertPrivateDir, ensurePrivateDir } from "./private-dir.ts";
export { currentUsage, forgetReading, isFresh, loadReading, recordReading, transcriptUsage, type UsageQuery } from "./reading.ts";
export { main } from "./hook-main.ts";
export { type FastPathContext, type HookContext, type HookDefinition, type HookIO, type LazyHook, runHook } from "./runtime.ts";
export {
  type HookEvent,
  type HookInput,
  type HookInputs,
  parseHookInput,
  postCompactInput,
  postToolUseInput,
  preCompactInput,
  sessionStartInput,
  statusLineInput,
  stopInput,
  userPromptSubmitInput,
  type PostCompactInput,
  type PostToolUseInput,
  type PreCompactInput,
  type SessionStartInput,
  type StatusLineInput,
  type StopInput,
  type UserPromptSubmitInput,
} from "./schemas.ts";
export { assertSafeSessionId, isSafeSessionId } from "./session-id.ts";
export { projectSlug } from "./slug.ts";
export { type StatusLineFacts, statusLineFacts } from "./statusline-facts.ts";
export { runStatusLine, type StatusLineCommand, type StatusLineContext, statusLineMain } from "./statusline-runtime.ts";
export {
  isMechanicalSnapshot,
  MECHANICAL_SNAPSHOT_MARK,
  renderState,
  STATE_HEADERS,
  type StateHeader,
  stateSections,
  stateTemplate,
  type StateVerification,
  verifyState,
} from "./state-file.ts";
export { isUnfilledState } from "./state-unfilled.ts";
export { isDebug, isHookEnabled } from "./switches.ts";
export { fillTemplate } from "./template.ts";
export { formatTokens } from "./token-text.ts";
export { type HookContextQuery, type HookContextRecord, hookContextSinceLastBoundary } from "./transcript-hook-context.ts";
export { forEachTranscriptLine, type TranscriptLineOptions, type TranscriptLineStats } from "./transcript-lines.ts";
export { readTailUsage, type TailUsage } from "./transcript-tail.ts";
export type {
  CommandRun,
  CompactionRecord,
  FileChange,
  TaskItem,
  TodoItem,
  ToolError,
  TranscriptFacts,
} from "./transcript-facts.ts";
export { type ScanOptions, scanTranscript } from "./transcript-scan.ts";
export { contextTokensOf, levelPercent, type UsageCounts, type UsagePercents, type UsageReading, usagePercents } from "./usage.ts";
