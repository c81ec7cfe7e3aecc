import { spawnSync } from "node:child_process";
import type { Env } from "../env.ts";

/** A pane of the tmux window the session runs in. */
interface TmuxPane {
  /** `%3`: what `tmux send-keys -t`, `capture-pane -t` take. */
  id: string;
  index: number;
  title: string;
  /** The pane's foreground process, as tmux names it (`node`, `sleep`, `bash`). */
  command: string;
  path: string;
  pid: number | null;
  /** The pane Claude Code itself runs in (`TMUX_PANE`). */
  self: boolean;
}

export interface TmuxWindow {
  session: string;
  /** `@2` */
  windowId: string;
  windowName: string;
  panes: TmuxPane[];
}

const FIELDS = [
  "pane_id",
  "pane_index",
  "pane_title",
  "pane_current_command",
  "pane_current_path",
  "pane_pid",
  "session_name",
  "window_id",
  "window_name",
];
// A unit separator: titles hold spaces, tabs are refused (tmux 3.3 drops a title with a control character).
const SEPARATOR = "\x1f";
const DEFAULT_TIMEOUT_MS = 1_000;
const MAX_PANES = 32;

/**
 * The panes of the window Claude Code runs in, when it runs inside tmux (`TMUX` and `TMUX_PANE` in the hook's
 * environment, which Claude Code passes on); null outside tmux, or when tmux does not answer in `timeoutMs`.
 */
export function readTmuxWindow(env: Env, timeoutMs = DEFAULT_TIMEOUT_MS): TmuxWindow | null {
  const pane = env.TMUX_PANE;
  if (!env.TMUX || !pane || !/^%\d+$/.test(pane)) return null;
  const format = FIELDS.map((field) => `#{${field}}`).join(SEPARATOR);
  const listed = spawnSync("tmux", ["list-panes", "-t", pane, "-F", format], {
    env,
    encoding: "utf8",
    timeout: timeoutMs,
    stdio: ["ignore", "pipe", "ignore"],
  });
  if (listed.status !== 0 || typeof listed.stdout !== "string") return null;
  const rows = listed.stdout
    .split("\n")
    .filter((line) => line.includes(SEPARATOR))
    .map((line) => line.split(SEPARATOR));
  const first = rows[0];
  if (!first || first.length < FIELDS.length) return null;
  return {
    session: first[6]!,
    windowId: first[7]!,
    windowName: first[8]!,
    panes: rows.slice(0, MAX_PANES).map((row) => ({
      id: row[0]!,
      index: Number(row[1]),
      title: row[2]!,
      command: row[3]!,
      path: row[4]!,
      pid: /^\d+$/.test(row[5]!) ? Number(row[5]) : null,
      self: row[0] === pane,
    })),
  };
}
