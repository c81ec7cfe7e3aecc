import type { Wrong } from "./classify.ts";
import type { Fact } from "./facts.ts";

interface Explanation {
  why: string;
  close: string;
}

/**
 * Why a fact carryover should hold was out of reach, from what the run saw (its notes say what went differently
 * from the script). Causes found by reading the requests of a kept sandbox (CARRYOVER_E2E_KEEP=1); a miss with no
 * known cause says so rather than guess.
 */
export function explainMiss(fact: Fact, notes: readonly string[]): Explanation {
  const refused = notes.find((note) => note.startsWith("/compact-prep did not save"));
  if (fact.viaPrep && refused) return { why: refused, close: "make /compact-prep's save succeed here" };
  if (fact.id === "shell" || fact.id === "subagent") {
    return {
      why: "neither Claude Code's reminders nor carryover's recovery context or mechanical snapshot named it",
      close:
        "the recovery context and the snapshot's Worker Topology name every shell and subagent the transcript " +
        "shows still running (issue #20); rerun with CARRYOVER_E2E_KEEP=1 to see which of them left it out",
    };
  }
  return {
    why: "not in the request, in a file it names, or in PreCompact's instructions: no cause on file",
    close: "rerun this scenario with CARRYOVER_E2E_KEEP=1 and read its requests.jsonl",
  };
}

export function explainWrong(wrong: Wrong): Explanation {
  if (wrong.what === "an earlier compaction denied" && wrong.evidence.includes("SessionStart context")) {
    return {
      why:
        "the recovery hook takes any compaction the transcript records less than 60 s before this one for this " +
        "one, so with no ledger to go by (carryover installed after the earlier compaction) a compaction that " +
        "recent is not counted; the scripted session compacts twice within seconds, a real one seldom within a minute",
      close:
        "count by position, not time: at SessionStart(compact) Claude Code 2.1.332 has not yet written this " +
        "compaction to the transcript (behaviour.md §5), so every compaction it holds is an earlier one; at " +
        "the UserPromptSubmit fallback, this one is the last",
    };
  }
  const stale = wrong.what === "a state from before the previous compaction presented as current";
  if (stale && wrong.evidence.includes("/compact-prep state file (")) {
    return {
      why:
        "pre-compact quotes the state file's decisions and constraints for the summary to carry faithfully " +
        "whenever it has them, fresh or not: it knows the state predates the previous compaction (it writes the " +
        "mechanical snapshot for that reason) but does not say so",
      close:
        "in packages/hook-pre-compact/src/steering.ts (prepQuote), when the state is not fresh say it was saved " +
        "before the previous compaction and may describe an earlier stage, as the recovery context does",
    };
  }
  return {
    why: "no cause on file",
    close: "rerun this scenario with CARRYOVER_E2E_KEEP=1 and read what carryover wrote",
  };
}
