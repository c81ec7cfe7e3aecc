import type { ConfigTable } from "@carryover/core";

const PLACEHOLDERS = ["percent", "used", "limit", "left", "level"] as const;

/** Section `prep-reminder` of carryover's config files; `CARRYOVER_PREP_REMINDER_<KEY>` in the env. */
export const keys = {
  message: {
    kind: "template",
    placeholders: PLACEHOLDERS,
    default:
      "Context at {percent}% of the auto-compact point ({used} of {limit} tokens). " +
      "Run /compact-prep now to save plan, decisions and tasks before auto-compaction.",
    description: "what the user is shown when a level is crossed; placeholders {percent} {used} {limit} {left} {level}",
  },
  context: {
    kind: "template",
    placeholders: PLACEHOLDERS,
    empty: true,
    default:
      "Context usage is at {percent}% of the auto-compact point ({used} of {limit} tokens); " +
      "auto-compaction replaces the history with a summary at 100%. " +
      "The user has been told that /compact-prep saves plan, decisions and tasks first.",
    description: "the fact the agent is given with the reminder (facts, not orders); empty gives the agent nothing",
  },
  dueMessage: {
    kind: "template",
    placeholders: PLACEHOLDERS,
    default:
      "Context at {percent}% of the auto-compact point ({used} of {limit} tokens): " +
      "Claude Code compacts before answering this prompt.",
    description:
      "what the user is shown instead when the context is already past the auto-compact point " +
      "(the agent is told nothing: it would read it after the compaction)",
  },
  mutedLevels: { kind: "percents", default: [], description: "levels that raise no reminder" },
} as const satisfies ConfigTable;
