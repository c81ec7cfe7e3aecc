// UserPromptSubmit: once per level per session (re-armed after a compaction), tells the user the context
// passed a level of the auto-compact point and that /compact-prep saves the session first; the agent gets the facts.
import { type HookDefinition, LEVEL_MARKER_PREFIX, listMarkers, loadReading, type UsageReading } from "@carryover/core";
import type { keys } from "./config.ts";

/** What the probe saw: the session's markers and its recorded reading (null without one). */
export interface Seen {
  markers: ReadonlySet<string>;
  recorded: UsageReading | null;
}

// The user is running the skill the reminder is about: the level counts as told, silently.
const PREPARING = /^\s*\/compact-prep(\s|$)/;

/**
 * The probe in sh, run by the executable's prelude before Node starts (packages/build): no `level-*` marker,
 * and the statusline's reading still fresh. sh has no clock: the reading's mtime is its `freshUntilMs`
 * (core's recordReading), newer than the file sh touches now. A clock set back leaves that check to Node.
 * @public read by name by packages/build (src/launch.mjs), which runs this file's bundle.
 */
export const shFastPath = {
  UserPromptSubmit: /* @__PURE__ */ [
    'lv=; for m in "$session"/markers/level-*.json; do if [ -e "$m" ] || [ -L "$m" ]; then lv=1; fi; done',
    "r=$session/usage.json; n=$session/now",
    'if [ -z "$lv" ] && [ -f "$r" ] && [ ! -L "$r" ] && [ ! -L "$n" ] && ' +
      '{ : >"$n"; } 2>/dev/null && [ "$r" -nt "$n" ]; then',
    "  exit 0",
    "fi",
  ].join("\n"),
};

export const hook: HookDefinition<"UserPromptSubmit", typeof keys, Seen> = {
  name: "prep-reminder",
  config: () => import("./config.ts"),
  events: ["UserPromptSubmit"],

  /**
   * Null when there is nothing to announce, decided from one directory listing and one small file: while the
   * statusline's reading is fresh, the statusline raises a `level-N` marker for every level to announce, so no
   * marker means nothing to say. Fresh is what the statusline vouched for (`freshUntilMs`, from the config it
   * ran with), so no config is loaded here. Without a fresh reading (print mode, SDK, no statusline) run asks
   * the transcript.
   */
  probe({ session, nowMs }) {
    const markers = new Set(listMarkers(session));
    const recorded = loadReading(session);
    const raised = [...markers].some((name) => name.startsWith(LEVEL_MARKER_PREFIX));
    const vouched = recorded?.freshUntilMs !== undefined && nowMs >= recorded.atMs && nowMs <= recorded.freshUntilMs;
    return raised || !vouched ? { markers, recorded } : null;
  },

  async run({ input, nowMs, config, projectDir, session }, { markers, recorded }) {
    const { claimLevel, contextOutput, currentUsage, levelPercent, reminderParts } = await import("./deps.ts");
    const { levels, freshReadingMs, contextWindowTokens } = config.shared;
    const transcriptPath = input.transcript_path;
    const reading = currentUsage(
      { session, transcriptPath, projectDir, nowMs, freshReadingMs, contextWindowTokens },
      recorded,
    );
    // No reading yet (first prompt), or auto-compaction off: nothing to prepare for.
    if (!reading || reading.autoCompactTokens === null) return null;
    const percent = levelPercent(reading);
    const level = claimLevel(session, markers, percent, { levels, mutedLevels: config.hook.mutedLevels, nowMs });
    if (level === null || PREPARING.test(input.prompt)) return null;
    const { autoCompactTokens } = reading;
    return contextOutput(
      "UserPromptSubmit",
      reminderParts(config.hook, { ...reading, autoCompactTokens }, percent, level),
    );
  },
};
