import type { Env } from "@carryover/core";

/** Everything a command touches outside the file system, so tests drive commands in-process. */
export interface Io {
  env: Env;
  cwd: string;
  nowMs: number;
  /** Colours only when stdout is a terminal (and NO_COLOR is unset). */
  stdoutIsTty: boolean;
  /** A progress line only when stderr is a terminal (`carryover context` on a large transcript). */
  stderrIsTty?: boolean;
  /** The terminal's width, when stdout is one. */
  stdoutColumns?: number | undefined;
  /** The release dir the CLI ships with (`dist/release` beside the executable). */
  shippedReleaseDir: string;
  /** Where this platform keeps Claude Code's managed settings (`/etc/claude-code` on Linux). */
  managedSettingsDir: string;
  out(text: string): void;
  err(text: string): void;
}
