// PreCompact (manual and auto): journals the session before its history is summarized, and steers the summary.
import type { HookDefinition } from "@carryover/core";
import type { keys } from "./config.ts";
import type { Scope } from "./describe.ts";
import type { PreCompactJournal } from "./journal.ts";
import type { Compaction } from "./sections.ts";
import type { Topology } from "./snapshot.ts";

export const hook: HookDefinition<"PreCompact", typeof keys> = {
  name: "pre-compact",
  config: () => import("./config.ts"),
  events: ["PreCompact"],

  async run({ input, env, nowMs, config, projectDir, session, log }) {
    const deps = await import("./deps.ts");
    const { trigger, prompt_id: promptId } = input;
    const compaction: Compaction = { sessionId: session.id, trigger, promptId, atMs: nowMs };
    const scope: Scope = { projectDir, home: deps.homeDir(env) };
    const transcript = input.transcript_path || deps.transcriptPath(env, input.cwd, session.id);
    const { stateDir, changesFile } = config.shared;
    const ownPaths = deps.carryoverOwnPaths(env, {
      sessionId: session.id,
      stateDir,
      changesFile,
      projectDir,
      cwd: input.cwd,
    });
    const facts = await deps.readFacts(transcript, env, ownPaths, log);
    const summaries = deps.readLedger(session);
    const previousAtMs = Math.max(summaries.at(-1)?.atMs ?? -1, facts?.compactions.at(-1)?.atMs ?? -1);
    // Each part stands alone: one failing (a symlinked file, a full disk) is logged and leaves the others.
    const attempt = <T>(what: string, action: () => T): T | null => {
      try {
        return action();
      } catch (error) {
        log(`${what}: ${deps.errorMessage(error)}`);
        return null;
      }
    };
    const since = previousAtMs >= 0 ? previousAtMs : null;
    const prepQuery = { compaction, previousAtMs: since };
    const prep = attempt("compact-prep state", () => deps.readPrepState(env, session, stateDir, prepQuery));
    const window = attempt("tmux panes", () => deps.readTmuxWindow(env));
    const topology: Topology = { previousCompactionAtMs: since, window };
    // Recorded first, whatever fails after: the compaction is named by this time (core's compaction starts).
    const earlierStarts = attempt("compaction start", () => deps.readCompactionStarts(session)) ?? [];
    attempt("compaction start", () => deps.recordCompactionStart(session, nowMs));

    const wrote: PreCompactJournal["wrote"] = { changesFile: null, snapshot: null, memoryTopic: null };
    if (facts) {
      const changes = deps.changesLogPath(projectDir, changesFile);
      const snapshot = config.hook.snapshot && !prep?.fresh;
      const memory = config.hook.memoryEntry && deps.isAutoMemoryEnabled(env, projectDir);
      wrote.changesFile =
        changes && attempt("changes log", () => deps.writeChangesLog(env, changes, compaction, facts, scope));
      if (snapshot)
        wrote.snapshot = attempt("snapshot", () =>
          deps.writeSnapshot(session, compaction, facts, scope, transcript, topology),
        );
      if (memory)
        wrote.memoryTopic = attempt(
          "memory entry",
          () => deps.writeMemoryEntry(env, input.cwd, compaction, facts, scope, prep).topicPath,
        );
    }
    const journal = { ...compaction, transcriptPath: transcript, facts, wrote };
    attempt("journal", () => deps.writePreCompactJournal(session, journal));
    if (!config.hook.steering) return null;
    const earlier = deps.earlierSummaries(summaries, facts?.compactions ?? [], earlierStarts);
    const maxChars = config.hook.steeringMaxChars;
    return deps.steeringText({ compaction, earlier, prep, facts, topology, scope, maxChars });
  },
};
