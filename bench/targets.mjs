/** The targets of issues 8 and 18, in one place for the bench and its report. */
export const TARGETS = {
  /** A UserPromptSubmit hook's fast path (decided in sh), median wall time as a multiple of `node -e 0`. */
  promptFastRatio: 0.2,
  /** Every UserPromptSubmit hook on its fast path, started together, over one `node -e 0`. */
  promptTotalRatio: 0.3,
  /** The other every-prompt paths (the statusline, memory-guard after an edit, pin re-injecting), over `node -e 0`. */
  startupRatio: 1.05,
  /**
   * Peak RSS over Node's own for that run: an empty file run from as long a path, in the same environment (a fixed
   * figure would judge the Node, and `node -e 0` leaves out what Node's start costs for a script's path).
   */
  startupRssOverMiB: 3,
  /** The statusline with a 1 GB transcript against a 1 MB one (flat: within the run's noise). */
  flatRatio: 1.05,
  scanMBps: 500,
  scanRssMiB: 64,
  /** Per hook bundle; KB = 1000 bytes. */
  bundleBytes: 30_000,
};

/**
 * Runs a round of each start-up path a target judges: one run's ratio here ranges over 0.7–1.5×, so the
 * median of 40 moved by up to 4% between runs, close to the whole margin a 1.05× target leaves.
 */
export const TARGET_REPEATS = 3;
