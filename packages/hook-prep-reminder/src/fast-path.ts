import { type FastPathContext, fastPathConfig, isFresh, LEVEL_MARKER_PREFIX, listMarkers, loadReading } from "@carryover/core";

/**
 * True when there is nothing to announce, decided from one directory listing and one small file: while
 * the statusline's reading is fresh, the statusline raises a `level-N` marker for every level to
 * announce, so no marker means nothing to say. Without a fresh reading (print mode, SDK, no statusline)
 * the transcript has to be asked.
 */
export function nothingPending({ payload, env, nowMs, projectDir }: FastPathContext): boolean {
  const config = fastPathConfig("prep-reminder", env, projectDir);
  if (!config) return false;
  const { levels, freshReadingMs } = config.shared;
  if (levels.length === 0) return true;
  if (listMarkers(env, payload.session_id, LEVEL_MARKER_PREFIX).length > 0) return false;
  const reading = loadReading(env, payload.session_id);
  return reading !== null && isFresh(reading, nowMs, freshReadingMs);
}
