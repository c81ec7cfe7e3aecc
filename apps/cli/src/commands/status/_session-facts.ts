import { statSync } from "node:fs";
import { join } from "node:path";
import {
  ANNOUNCED_MARKER_PREFIX,
  COMPACTED_MARKER,
  carryoverRoot,
  compactionWorkers,
  compactStatePath,
  dirNames,
  type Env,
  highestLevelReached,
  isFresh,
  isMechanicalSnapshot,
  isSafeSessionId,
  LEVEL_MARKER_PREFIX,
  type LedgerEntry,
  levelPercent,
  listMarkers,
  loadConfig,
  loadLastCompaction,
  loadReading,
  markerPath,
  mechanicalSnapshotPath,
  openSession,
  orderStateByCount,
  projectSlug,
  projectsDir,
  RECOVERY_DELIVERED_MARKER,
  readFileNoFollow,
  readLedger,
  readStateStamp,
  type Session,
  type StateOrder,
  scanWorkers,
  transcriptUsage,
  type UsagePercents,
  type UsageReading,
  usagePercents,
  verifyState,
} from "@carryover/core";
import { CliError, usageError } from "../../errors.ts";
import { tildify } from "../../output/display.ts";

/**
 * How the state file stands to the compactions: saved since the last one; saved before it and so carried across
 * it (the /compact-prep then /compact flow); or stale, not saved since the one before.
 */
type Freshness =
  | "saved since the last compaction"
  | "carried across the last compaction"
  | "stale"
  | "no compaction yet";

interface SessionFacts {
  sessionId: string;
  reading: (UsageReading & UsagePercents & { levelPercent: number; level: number | null; fresh: boolean }) | null;
  levels: number[];
  /** A level crossed whose reminder the next prompt gives ("due"), or one the reminder gave ("told"). */
  reminders: Array<{ levelPercent: number; state: "due" | "told"; atMs: number | null }>;
  /** After a compaction: recovery waiting for the next prompt ("due"), or given ("delivered"). */
  recovery: { state: "due" | "delivered"; atMs: number | null } | null;
  stateFile: {
    path: string;
    exists: boolean;
    savedAtMs: number | null;
    freshness: Freshness;
    headersOk: boolean;
    missingHeaders: string[];
    mechanical: boolean;
  };
  snapshot: { path: string; exists: boolean };
  ledger: LedgerEntry[];
  /** What the transcript says is still at work, and what ended since the last compaction; [] without a transcript. */
  workers: Array<{ kind: string; id: string; description: string; command: string | null; state: string }>;
}

/**
 * The session whose carryover state changed last (`~/.claude/carryover/sessions/<id>`) or, newer, this project's
 * newest transcript: without a status line (print mode, `--statusline skip`) a session's first prompts leave no
 * carryover state, only Claude Code's transcript. Null when there is neither.
 */
export function newestSession(env: Env, projectDir: string): string | null {
  let best: { id: string; mtimeMs: number } | null = null;
  const consider = (id: string, mtimeMs: number | null) => {
    if (isSafeSessionId(id) && mtimeMs !== null && (!best || mtimeMs > best.mtimeMs)) best = { id, mtimeMs };
  };
  const sessions = join(carryoverRoot(env), "sessions");
  for (const id of dirNames(sessions)) consider(id, newestMtime(join(sessions, id)));
  const transcripts = join(projectsDir(env), projectSlug(projectDir));
  for (const name of dirNames(transcripts).filter((one) => one.endsWith(".jsonl")))
    consider(name.slice(0, -".jsonl".length), mtimeOf(join(transcripts, name)));
  return (best as { id: string } | null)?.id ?? null;
}

function newestMtime(dir: string): number {
  let newest = mtimeOf(dir) ?? 0;
  for (const sub of [dir, join(dir, "markers")]) {
    for (const name of dirNames(sub)) newest = Math.max(newest, mtimeOf(join(sub, name)) ?? 0);
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
  for (const slug of dirNames(projectsDir(env))) {
    const path = join(projectsDir(env), slug, `${sessionId}.jsonl`);
    if (mtimeOf(path) !== null) return path;
  }
  return undefined;
}

/** Everything carryover knows about one session; reads only, never removes a stale marker. */
export async function sessionFacts(
  env: Env,
  sessionId: string,
  projectDir: string,
  nowMs: number,
): Promise<SessionFacts> {
  if (!isSafeSessionId(sessionId)) throw usageError(`${JSON.stringify(sessionId)} is not a session id`);
  const { shared } = loadConfig("", {}, env, projectDir);
  const transcriptPath = findTranscript(env, sessionId);
  const statePath = compactStatePath(env, sessionId, shared.stateDir || undefined);
  if (
    mtimeOf(openSession(env, sessionId).dir) === null &&
    transcriptPath === undefined &&
    mtimeOf(statePath) === null
  ) {
    throw new CliError(
      `no session ${sessionId}: carryover has no state for it, and no transcript of it is under ` +
        `${tildify(projectsDir(env), env)}; ` +
        "`carryover status` shows the newest",
    );
  }
  const session = openSession(env, sessionId);
  const recorded = loadReading(session);
  const reading =
    recorded ??
    transcriptUsage({
      session,
      transcriptPath,
      projectDir,
      nowMs,
      freshReadingMs: shared.freshReadingMs,
      contextWindowTokens: shared.contextWindowTokens,
    });
  const ledger = readLedger(session);
  const stateText = safeRead(statePath);
  const savedAtMs = mtimeOf(statePath);
  const verification = stateText === null ? null : verifyState(stateText);
  const snapshot = mechanicalSnapshotPath(session);
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
    ...markerFacts(env, sessionId),
    stateFile: {
      path: statePath,
      exists: stateText !== null,
      savedAtMs,
      freshness: freshness(savedAtMs, ledger, stateOrder(session, statePath)),
      headersOk: verification?.ok ?? false,
      missingHeaders: verification ? [...verification.missing, ...verification.outOfOrder] : [],
      mechanical: stateText !== null && isMechanicalSnapshot(stateText),
    },
    snapshot: { path: snapshot, exists: mtimeOf(snapshot) !== null },
    ledger,
    workers: transcriptPath === undefined ? [] : await workersOf(transcriptPath),
  };
}

async function workersOf(transcriptPath: string): Promise<SessionFacts["workers"]> {
  let facts: Awaited<ReturnType<typeof scanWorkers>>;
  try {
    facts = await scanWorkers(transcriptPath);
  } catch {
    // Gone or unreadable since it was found: nothing to say of its workers.
    return [];
  }
  const { live, ended } = compactionWorkers(facts.workers, facts.compactions.at(-1)?.atMs ?? null);
  return [...live, ...ended]
    .sort((a, b) => facts.workers.indexOf(a) - facts.workers.indexOf(b))
    .map(({ kind, id, description, command, state }) => ({ kind, id, description, command, state }));
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

/** The state against the last compaction by PostCompact's count, as the hooks order it; null: by the clock. */
function stateOrder(session: Session, statePath: string): StateOrder | null {
  const last = loadLastCompaction(session);
  return last && orderStateByCount(readStateStamp(statePath), last, last);
}

const FRESHNESS_BY_COUNT: Record<StateOrder, Freshness> = {
  after: "saved since the last compaction",
  "since-previous": "carried across the last compaction",
  "before-previous": "stale",
};

function freshness(savedAtMs: number | null, ledger: readonly LedgerEntry[], order: StateOrder | null): Freshness {
  if (savedAtMs !== null && order !== null) return FRESHNESS_BY_COUNT[order];
  const [before, last] = [ledger.at(-2)?.atMs ?? null, ledger.at(-1)?.atMs ?? null];
  if (last === null) return "no compaction yet";
  if (savedAtMs === null) return "stale";
  if (savedAtMs > last) return "saved since the last compaction";
  return before === null || savedAtMs > before ? "carried across the last compaction" : "stale";
}

/** What the hooks' markers mean to the user; claims and other bookkeeping are left out. */
function markerFacts(env: Env, sessionId: string): Pick<SessionFacts, "reminders" | "recovery"> {
  const at = (name: string) => markerTime(safeRead(markerPath(openSession(env, sessionId), name)));
  const names = listMarkers(openSession(env, sessionId));
  const levelOf = (name: string, prefix: string) =>
    name.startsWith(prefix) ? Number(name.slice(prefix.length)) : Number.NaN;
  const due = names.filter((name) => Number.isFinite(levelOf(name, LEVEL_MARKER_PREFIX)));
  const told = names.filter((name) => Number.isFinite(levelOf(name, ANNOUNCED_MARKER_PREFIX)));
  const dueLevels = new Set(due.map((name) => levelOf(name, LEVEL_MARKER_PREFIX)));
  const reminders = [
    ...due.map((name) => ({ levelPercent: levelOf(name, LEVEL_MARKER_PREFIX), state: "due" as const, atMs: at(name) })),
    ...told
      .filter((name) => !dueLevels.has(levelOf(name, ANNOUNCED_MARKER_PREFIX)))
      .map((name) => ({
        levelPercent: levelOf(name, ANNOUNCED_MARKER_PREFIX),
        state: "told" as const,
        atMs: at(name),
      })),
  ].sort((a, b) => a.levelPercent - b.levelPercent);
  const recovery = names.includes(COMPACTED_MARKER)
    ? { state: "due" as const, atMs: at(COMPACTED_MARKER) }
    : names.includes(RECOVERY_DELIVERED_MARKER)
      ? { state: "delivered" as const, atMs: at(RECOVERY_DELIVERED_MARKER) }
      : null;
  return { reminders, recovery };
}
