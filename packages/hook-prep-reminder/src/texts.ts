import { fillTemplate, formatTokens, type UsageReading } from "@carryover/core";

export interface ReminderTexts {
  message: string;
  context: string;
  dueMessage: string;
}

/** What the user sees and what the agent is told; past the auto-compact point only the user is told. */
export function reminderParts(
  texts: ReminderTexts,
  reading: UsageReading & { autoCompactTokens: number },
  percent: number,
  level: number,
) {
  const values = {
    percent: String(Math.floor(percent)),
    used: formatTokens(reading.contextTokens),
    limit: formatTokens(reading.autoCompactTokens),
    left: formatTokens(Math.max(0, reading.autoCompactTokens - reading.contextTokens)),
    level: String(level),
  };
  // Claude Code compacts before sending this prompt: context given now would first reach the agent
  // after the compaction, a warning about a context that no longer exists.
  if (percent >= 100) return { systemMessage: fillTemplate(texts.dueMessage, values) };
  return { systemMessage: fillTemplate(texts.message, values), additionalContext: fillTemplate(texts.context, values) };
}
