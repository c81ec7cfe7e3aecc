import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeBin } from "./claude-bin.ts";
import { isAlive } from "./process.ts";
import type { Sandbox } from "./sandbox.ts";
import { waitFor } from "./wait.ts";

export interface TuiOptions {
  cols?: number;
  rows?: number;
  args?: string[];
  env?: Record<string, string>;
  /** How long to wait for the prompt box after start. */
  readyTimeoutMs?: number;
}

interface ScreenOptions {
  /** Keep ANSI colour escapes (`capture-pane -e`). */
  colors?: boolean;
}

export interface Tui {
  /** The tmux server socket (`tmux -S <socket>`), inside the sandbox: unique per TUI, removed with it. */
  socket: string;
  /** Types `text` literally, then presses Enter once it shows. Returns at once: see `submit`. */
  send(text: string): Promise<void>;
  /**
   * `send`, then waits until the mock has received a request for it and Claude Code is idle again. For
   * prompts and `/compact`; a slash command that sends no request (e.g. `/clear`) needs `send` + `waitForScreen`.
   */
  submit(text: string, options?: { timeoutMs?: number }): Promise<string>;
  /** Waits until the footer no longer says "esc to interrupt", twice in a row. */
  waitForIdle(options?: { timeoutMs?: number }): Promise<string>;
  /** Types `text` literally without Enter. */
  type(text: string): void;
  /** tmux key names, e.g. "Enter", "Escape", "C-c". */
  sendKeys(...keys: string[]): void;
  screen(options?: ScreenOptions): string;
  /** Polls the screen until `pattern` matches; returns that screen. Times out with the last screen in the error. */
  waitForScreen(pattern: RegExp, options?: ScreenOptions & { timeoutMs?: number }): Promise<string>;
  /** Kills the tmux server and waits for Claude Code to exit. Safe to call twice. */
  stop(): Promise<void>;
}

/** The empty prompt line under the input box's top rule: Claude Code is idle and accepts input. */
const READY_PATTERN = /^❯\s*$/m;
const PASTE_CHIP = /\[Pasted text #\d+/;
/** Footer hint shown for the whole of a turn, tool loop included (2.1.332). */
const BUSY_PATTERN = /esc to interrupt/;

export function hasTmux(): boolean {
  return spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;
}

/**
 * Starts the interactive CLI in a detached tmux session on its own server (socket in the sandbox, no user
 * config), so a test never touches the user's tmux. Uses `--permission-mode default`: the TUI's default auto
 * mode ignores allow rules (behaviour.md §7.12). Resolves once the prompt box is shown; stopped by cleanup.
 */
export async function startTui(sandbox: Sandbox, options: TuiOptions = {}): Promise<Tui> {
  const { cols = 120, rows = 40, args = [], env = {}, readyTimeoutMs = 20_000 } = options;
  const name = `tmux-${randomBytes(4).toString("hex")}`;
  const socket = join(sandbox.root, `${name}.sock`);
  const config = join(sandbox.root, `${name}.conf`);
  // remain-on-exit keeps the pane (and Claude Code's last output) for the timeout error if the CLI dies.
  writeFileSync(config, "set -g remain-on-exit on\nset -g history-limit 5000\n");
  const tmuxEnv = { ...sandbox.env, ...env, TERM: "xterm-256color" };
  const tmux = (...tmuxArgs: string[]): string =>
    execFileSync("tmux", ["-S", socket, ...tmuxArgs], {
      env: tmuxEnv,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });

  const target = ["-t", "main"];
  const size = ["-x", String(cols), "-y", String(rows)];
  tmux(
    "-f",
    config,
    "new-session",
    "-d",
    "-s",
    "main",
    ...size,
    "-c",
    sandbox.project,
    claudeBin(),
    "--permission-mode",
    "default",
    ...args,
  );
  const pid = Number(tmux("display-message", "-p", ...target, "#{pane_pid}").trim());

  let stopping: Promise<void> | undefined;
  // Claude Code still writes under HOME while it exits on SIGHUP; removing the sandbox before then fails.
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      spawnSync("tmux", ["-S", socket, "kill-server"], { env: tmuxEnv, stdio: "ignore" });
      await waitFor(() => (isAlive(pid) ? undefined : true), { timeoutMs: 5_000, intervalMs: 50 }).catch(() => {
        if (isAlive(pid)) process.kill(pid, "SIGKILL");
      });
    })());
  sandbox.onCleanup(stop);

  const screen = (screenOptions: ScreenOptions = {}): string =>
    tmux("capture-pane", "-p", ...(screenOptions.colors ? ["-e"] : []), ...target);

  const waitForScreen: Tui["waitForScreen"] = async (pattern, waitOptions = {}) => {
    let last = "";
    try {
      return await waitFor(
        () => {
          last = screen(waitOptions);
          return pattern.test(last) ? last : undefined;
        },
        { timeoutMs: waitOptions.timeoutMs ?? 20_000, description: `screen to match ${pattern}` },
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; last screen:\n${last}`);
    }
  };

  const waitForIdle: Tui["waitForIdle"] = async ({ timeoutMs = 30_000 } = {}) => {
    let idlePolls = 0;
    let last = "";
    // Two idle polls: Ink re-renders asynchronously, so the footer may lag a request by a frame.
    await waitFor(
      () => {
        last = screen();
        idlePolls = BUSY_PATTERN.test(last) ? 0 : idlePolls + 1;
        return idlePolls >= 2 ? true : undefined;
      },
      { timeoutMs, intervalMs: 150, description: "Claude Code to be idle" },
    ).catch((error: Error) => {
      throw new Error(`${error.message}; last screen:\n${last}`);
    });
    return last;
  };

  const type = (text: string): void => {
    tmux("send-keys", ...target, "-l", text);
  };

  try {
    await waitForScreen(READY_PATTERN, { timeoutMs: readyTimeoutMs });
  } catch (error) {
    await stop();
    throw error;
  }

  const send = async (text: string): Promise<void> => {
    type(text);
    // An Enter in the same burst as the text is taken as part of a paste: wait for the echo first.
    // Whitespace is ignored because the input box wraps long prompts; a long burst may show as a paste chip.
    const tail = text.slice(-20).replace(/\s+/g, "");
    await waitFor(
      () => {
        const shown = screen();
        return shown.replace(/\s+/g, "").includes(tail) || PASTE_CHIP.test(shown) ? true : undefined;
      },
      { timeoutMs: 5_000, intervalMs: 50, description: `the typed text ending ${JSON.stringify(tail)} to show` },
    );
    tmux("send-keys", ...target, "Enter");
  };

  return {
    socket,
    type,
    send,
    async submit(text, { timeoutMs = 30_000 } = {}) {
      const before = sandbox.mock.requests().length;
      await send(text);
      await waitFor(() => (sandbox.mock.requests().length > before ? true : undefined), {
        timeoutMs,
        description: `a request after submitting ${JSON.stringify(text.slice(0, 40))}`,
      });
      return waitForIdle({ timeoutMs });
    },
    waitForIdle,
    sendKeys: (...keys) => {
      tmux("send-keys", ...target, ...keys);
    },
    screen,
    waitForScreen,
    stop,
  };
}
