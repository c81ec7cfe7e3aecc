import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  carryoverRoot,
  compactStatePath,
  type Env,
  highestLevelReached,
  isFresh,
  isMechanicalSnapshot,
  isSafeSessionId,
  type LedgerEntry,
  levelPercent,
  listMarkers,
  loadConfig,
  loadReading,
  markerPath,
  mechanicalSnapshotPath,
  projectsDir,
  readFileNoFollow,
  readLedger,
  transcriptUsage,
  type UsagePercents,
  type UsageReading,
  usagePercents,
  verifyState,
} from "@carryover/core";
import { usageError } from "../../errors.ts";

interface SessionFacts {
  sessionId: string;
  reading: (UsageReading & UsagePercents & { levelPercent: number; level: number | null; fresh: boolean }) | null;
  levels: number[];
  markers: Array<{ name: string; createdAtMs: number | null }>;
  stateFile: { path: string; exists: boolean; savedAtMs: number | null; fresh: boolean; headersOk: boolean; missingHeaders: string[]; mechanical: boolean };
  snapshot: { path: string; exists: boolean };
  ledger: LedgerEntry[];
}

/** The session whose carryover state changed last (`~/.claude/carryover/sessions/<id>`), or null. */
export function newestSession(env: Env): string | null {
  const dir = join(carryoverRoot(env), "sessions");
  let best: { id: string; mtimeMs: number } | null = null;
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return null;
  }
  for (const id of entries) {
    if (!isSafeSessionId(id)) continue;
    const mtimeMs = newestMtime(join(dir, id));
    if (!best || mtimeMs > best.mtimeMs) best = { id, mtimeMs };
  }
  return best?.id ?? null;
}

function newestMtime(dir: string): number {
  let newest = mtimeOf(dir) ?? 0;
  for (const sub of [dir, join(dir, "markers")]) {
    try {
      for (const name of readdirSync(sub)) newest = Math.max(newest, mtimeOf(join(sub, name)) ?? 0);
    } catch {
      // no such dir
    }
  }
  return newest;
}

function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** `~/.claude/projects/<any slug>/<id>.jsonl`: status does not know the session's cwd. */
function findTranscript(env: Env, sessionId: string): string | undefined {
  try {
    for (const slug of readdirSync(projectsDir(env))) {
      const path = join(projectsDir(env), slug, `${sessionId}.jsonl`);
      if (mtimeOf(path) !== null) return path;
    }
  } catch {
    // no projects dir
  }
  return undefined;
}

/** Everything carryover knows about one session; reads only, never removes a stale marker. */
export function sessionFacts(env: Env, sessionId: string, projectDir: string, nowMs: number): SessionFacts {
  if (!isSafeSessionId(sessionId)) throw usageError(`--session: ${JSON.stringify(sessionId)} is not a session id`);
  const { shared } = loadConfig("", env, projectDir);
  const recorded = loadReading(env, sessionId);
  const reading =
    recorded ??
    transcriptUsage({
      env,
      sessionId,
      transcriptPath: findTranscript(env, sessionId),
      projectDir,
      nowMs,
      freshReadingMs: shared.freshReadingMs,
      contextWindowTokens: shared.contextWindowTokens,
    });
  const ledger = readLedger(env, sessionId);
  const lastCompactionMs = ledger.at(-1)?.atMs ?? null;
  const statePath = compactStatePath(env, sessionId, shared.stateDir || undefined);
  const stateText = safeRead(statePath);
  const savedAtMs = mtimeOf(statePath);
  const verification = stateText === null ? null : verifyState(stateText);
  const snapshot = mechanicalSnapshotPath(env, sessionId);
  return {
    sessionId,
    levels: shared.levels,
    reading: reading && {
      ...reading,
      ...usagePercents(reading),
      levelPercent: levelPercent(reading),
      level: highestLevelReached(levelPercent(reading), shared.levels),
      fresh: isFresh(reading, nowMs, shared.freshReadingMs),
    },
    markers: listMarkers(env, sessionId).map((name) => ({ name, createdAtMs: markerTime(safeRead(markerPath(env, sessionId, name))) })),
    stateFile: {
      path: statePath,
      exists: stateText !== null,
      savedAtMs,
      fresh: savedAtMs !== null && (lastCompactionMs === null || savedAtMs > lastCompactionMs),
      headersOk: verification?.ok ?? false,
      missingHeaders: verification ? [...verification.missing, ...verification.outOfOrder] : [],
      mechanical: stateText !== null && isMechanicalSnapshot(stateText),
    },
    snapshot: { path: snapshot, exists: mtimeOf(snapshot) !== null },
    ledger,
  };
}

function safeRead(path: string): string | null {
  try {
    return readFileNoFollow(path);
  } catch {
    return null;
  }
}

function markerTime(text: string | null): number | null {
  try {
    const value = text ? (JSON.parse(text) as { createdAtMs?: unknown }).createdAtMs : null;
    return typeof value === "number" ? value : null;
  } catch {
    return null;
  }
}
