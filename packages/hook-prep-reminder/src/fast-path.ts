import { type FastPathContext, LEVEL_MARKER_PREFIX, listMarkers, loadReading } from "@carryover/core";

/**
 * True when there is nothing to announce, decided from one directory listing and one small file: while
 * the statusline's reading is fresh, the statusline raises a `level-N` marker for every level to
 * announce, so no marker means nothing to say. Fresh is what the statusline vouched for (`freshUntilMs`,
 * from the config it ran with), so no config is loaded here. Without a fresh reading (print mode, SDK,
 * no statusline) the transcript has to be asked.
 */
export function nothingPending({ payload, env, nowMs }: FastPathContext): boolean {
  if (listMarkers(env, payload.session_id, LEVEL_MARKER_PREFIX).length > 0) return false;
  const reading = loadReading(env, payload.session_id);
  return reading?.freshUntilMs !== undefined && nowMs >= reading.atMs && nowMs <= reading.freshUntilMs;
}
