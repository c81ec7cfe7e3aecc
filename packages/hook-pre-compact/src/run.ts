// PreCompact (manual and auto): journals the session before its history is summarized, and steers the summary.
import {
  carryoverOwnPaths,
  type Env,
  errorMessage,
  type HookContext,
  type HookDefinition,
  homeDir,
  isAutoMemoryEnabled,
  mechanicalSnapshotPath,
  ensureSessionDir,
  plansDir,
  preCompactInput,
  readLedger,
  scanTranscript,
  transcriptPath,
  type TranscriptFacts,
  writeFileAtomic,
} from "@carryover/core";
import { changesLogPath, writeChangesLog } from "./changes-log.ts";
import type { Scope } from "./describe.ts";
import { earlierSummaries } from "./earlier.ts";
import { writePreCompactJournal } from "./journal.ts";
import { writeMemoryEntry } from "./memory-entry.ts";
import { readPrepState } from "./prep-state.ts";
import type { Compaction } from "./sections.ts";
import { snapshotText } from "./snapshot.ts";
import { steeringText } from "./steering.ts";

// Bounds the scan on any transcript: about half a second at the scanner's 500+ MB/s.
const MAX_SCAN_BYTES = 256 * 1024 * 1024;

export async function run({ input, env, nowMs, config, projectDir, log }: HookContext<"PreCompact", "pre-compact">): Promise<string | null> {
  const compaction: Compaction = { sessionId: input.session_id, trigger: input.trigger, promptId: input.prompt_id, atMs: nowMs };
  const scope: Scope = { projectDir, home: homeDir(env) };
  const path = input.transcript_path || transcriptPath(env, input.cwd, input.session_id);
  const ownPaths = carryoverOwnPaths(env, { sessionId: input.session_id, stateDir: config.shared.stateDir, changesFile: config.shared.changesFile, projectDir, cwd: input.cwd });
  const facts = await scan(path, env, ownPaths, log);
  const summaries = readLedger(env, compaction.sessionId);
  const previousAtMs = Math.max(summaries.at(-1)?.atMs ?? -1, facts?.compactions.at(-1)?.atMs ?? -1);
  const prep = attempt(log, "compact-prep state", () => readPrepState(env, compaction.sessionId, config.shared.stateDir, previousAtMs >= 0 ? previousAtMs : null));

  // Each part stands alone: one failing (a symlinked file, a full disk) leaves the others and the steering.
  if (facts) {
    const changes = changesLogPath(projectDir, config.shared.changesFile);
    const wrote = {
      changesFile: changes && attempt(log, "changes log", () => (writeChangesLog(env, changes, compaction, facts, scope), changes)),
      snapshot: config.hook.snapshot && !prep?.fresh ? attempt(log, "snapshot", () => writeSnapshot(env, compaction, facts, scope, path)) : null,
      memoryTopic:
        config.hook.memoryEntry && isAutoMemoryEnabled(env, projectDir)
          ? attempt(log, "memory entry", () => writeMemoryEntry(env, input.cwd, compaction, facts, scope, prep).topicPath)
          : null,
    };
    attempt(log, "journal", () => writePreCompactJournal(env, compaction.sessionId, { ...compaction, transcriptPath: path, facts, wrote }));
  }
  if (!config.hook.steering) return null;
  const earlier = earlierSummaries(summaries, facts?.compactions ?? []);
  return steeringText({ compaction, earlier, prep, facts, scope, maxChars: config.hook.steeringMaxChars });
}

async function scan(path: string, env: Env, ownPaths: string[], log: (message: string) => void): Promise<TranscriptFacts | null> {
  try {
    return await scanTranscript(path, { maxBytes: MAX_SCAN_BYTES, plansDir: plansDir(env), ownPaths });
  } catch (error) {
    log(`transcript not read (${errorMessage(error)}): no changes log, snapshot or memory entry for this compaction`);
    return null;
  }
}

function writeSnapshot(env: Env, compaction: Compaction, facts: TranscriptFacts, scope: Scope, transcript: string): string {
  ensureSessionDir(env, compaction.sessionId);
  const path = mechanicalSnapshotPath(env, compaction.sessionId);
  writeFileAtomic(path, snapshotText(compaction, facts, scope, transcript));
  return path;
}

function attempt<T>(log: (message: string) => void, what: string, action: () => T): T | null {
  try {
    return action();
  } catch (error) {
    log(`${what}: ${errorMessage(error)}`);
    return null;
  }
}

export const preCompactHook: HookDefinition<"PreCompact", "pre-compact"> = {
  name: "pre-compact",
  inputs: { PreCompact: preCompactInput },
  run,
};
