import type { ConfigSection, SectionConfig } from "./keys.ts";

/**
 * What each key is for, as `carryover config` lists it. Apart from the key table so that no hook carries
 * the text: the CLI alone shows it.
 */
const DESCRIPTIONS: { [S in ConfigSection]: { [K in keyof SectionConfig<S>]: string } } = {
  "": {
    levels: "context levels (percent of the auto-compact point) that raise a marker and a reminder",
    stateDir: "directory of compact-prep state files; empty means ${TMPDIR:-/tmp}/claude-compact-state",
    freshReadingMs: "how long a statusline reading stands in for reading the transcript",
    changesFile: "the pre-compact changes log, relative to the project root; empty turns it off",
    contextWindowTokens: "model window in tokens when no statusline reported it; 0 guesses from the model id",
  },
  statusline: {
    format: "the line; placeholders {percent} {used} {limit} {left} {windowPercent} {window} {windowNote} {model}; empty ' · ' segments are dropped",
    formatNoAutoCompact: "the line when auto-compaction is off (DISABLE_AUTO_COMPACT, DISABLE_COMPACT); same placeholders",
    color: "colour by level: auto follows NO_COLOR",
    chainCommand: "a statusline command to run with the same stdin and show with ours (set by the installer)",
    chainPosition: "where the chained statusline's output goes",
    chainTimeoutMs: "how long the chained command may take before ours shows alone",
  },
  "prep-reminder": {
    message: "what the user is shown when a level is crossed; placeholders {percent} {used} {limit} {left} {level}",
    context: "the fact the agent is given with the reminder (facts, not orders); empty gives the agent nothing",
    dueMessage: "what the user is shown instead when the context is already past the auto-compact point (the agent is told nothing: it would read it after the compaction)",
    mutedLevels: "levels that raise no reminder",
  },
  "post-compact": {
    ledgerMaxEntries: "compaction summaries kept per session in the ledger",
  },
  recovery: {
    maxChars: "cap on the recovery context",
    markerMaxAgeMs: "a compaction marker older than this is dropped",
  },
  "pre-compact": {
    snapshot: "write a mechanical state snapshot when compact-prep did not run",
    memoryEntry: "file a dated entry in the project's auto-memory (topic file + one MEMORY.md line)",
    steering: "ask the summarizer to carry earlier summaries, decisions and constraints forward",
    steeringMaxChars: "cap on the instructions added to the compaction prompt",
  },
  "memory-guard": {
    headroomPercent: "warn when MEMORY.md reaches this percent of 200 lines or 25 KB",
  },
  pin: {
    everyTurns: "re-inject pinned context every N prompts (always after a compaction)",
    maxBytes: "pinned text (both files together) above this is cut, with a warning",
  },
};

export function configDescription(section: ConfigSection, key: string): string {
  return (DESCRIPTIONS[section] as Record<string, string>)[key] ?? "";
}
