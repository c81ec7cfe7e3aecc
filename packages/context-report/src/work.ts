import { basename } from "node:path";
import {
  carryoverOwnPaths,
  compactionWorkers,
  type Env,
  isSafeSessionId,
  loadConfig,
  scanTranscript,
  type TranscriptFacts,
} from "@carryover/core";
import type { WorkRecord } from "./model.ts";

export interface WorkQuery {
  transcriptPath: string;
  env: Env;
  /** The session's working directory, as its transcript says; null when it does not. */
  cwd: string | null;
}

/**
 * What the session did since its last compaction, read by core as the hooks read it (subagents' transcripts
 * included, carryover's own writes and commands left out), with line numbers for scripts to find the boundary.
 */
export async function readWork(query: WorkQuery): Promise<WorkRecord> {
  const facts = await scanTranscript(query.transcriptPath, { ownPaths: ownPaths(query), lineNumbers: true });
  return workRecord(facts);
}

function ownPaths({ transcriptPath, env, cwd }: WorkQuery): string[] {
  const sessionId = basename(transcriptPath, ".jsonl");
  if (!cwd || !isSafeSessionId(sessionId)) return [];
  let shared = { stateDir: "", changesFile: "CHANGES_SESSION.md" };
  try {
    shared = loadConfig("", {}, env, cwd).shared;
  } catch {
    // A config the hooks would refuse: the defaults are what carryover writes without one.
  }
  return carryoverOwnPaths(env, {
    sessionId,
    stateDir: shared.stateDir,
    changesFile: shared.changesFile,
    projectDir: cwd,
    cwd,
  });
}

function workersSince(facts: TranscriptFacts): WorkRecord["workers"] {
  const { live, ended } = compactionWorkers(facts.workers, facts.since.compaction?.atMs ?? null);
  const workers = [...live, ...ended].sort((a, b) => facts.workers.indexOf(a) - facts.workers.indexOf(b));
  return workers.map(({ kind, id, description, command, state }) => ({ kind, id, description, command, state }));
}

function workRecord(facts: TranscriptFacts): WorkRecord {
  const { since } = facts;
  const last = since.compaction;
  return {
    since: last
      ? { line: last.line, trigger: last.trigger, preTokens: last.preTokens, postTokens: last.postTokens }
      : "start",
    lastRequest: facts.lastUserRequest,
    filesChanged: since.filesChanged.map(({ path, count }) => ({ path, count })),
    commands: since.commands.map(({ command, runs, failures }) => ({ command, runs, failures })),
    errors: since.errors.map(({ tool, target, message, resolved }) => ({ tool, target, message, resolved })),
    todos: (facts.todos ?? []).map(({ content, status }) => ({ content, status })),
    tasks: facts.tasks.map(({ id, subject, status }) => ({ id, subject, status })),
    workers: workersSince(facts),
  };
}
