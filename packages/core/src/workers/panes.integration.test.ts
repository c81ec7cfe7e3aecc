import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTmuxWindow } from "./panes.ts";

let dir: string;
let socket: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-panes-"));
  socket = join(dir, "tmux.sock");
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  tmux("new-session", "-d", "-s", "work", "-n", "main", "-c", dir, "sleep 60");
  tmux("split-window", "-d", "-t", "work:main", "-c", dir, "sleep 60");
  tmux("select-pane", "-t", "%1", "-T", "worker a, b");
  // A pane shows its shell until the command it runs has started.
  const deadline = Date.now() + 5_000;
  while (tmux("list-panes", "-t", "work:main", "-F", "#{pane_current_command}").trim() !== "sleep\nsleep") {
    if (Date.now() > deadline) throw new Error("the panes' commands did not start");
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
});
afterAll(() => {
  spawnSync("tmux", ["-S", socket, "kill-server"], { stdio: "ignore" });
  rmSync(dir, { recursive: true, force: true });
});

const env = (overrides: Record<string, string>) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  TMUX: `${socket},1,0`,
  ...overrides,
});

describe("readTmuxWindow", () => {
  it("lists the panes of the window TMUX_PANE is in, marking that one", () => {
    const window = readTmuxWindow(env({ TMUX_PANE: "%0" }));
    expect(window).toMatchObject({ session: "work", windowName: "main", windowId: expect.stringMatching(/^@\d+$/) });
    expect(window!.panes.map(({ id, command, path, self }) => ({ id, command, path, self }))).toEqual([
      { id: "%0", command: "sleep", path: dir, self: true },
      { id: "%1", command: "sleep", path: dir, self: false },
    ]);
    expect(window!.panes[1]!.title).toBe("worker a, b");
  });

  it("is null outside tmux, for a pane id that is not one, and when tmux cannot be run", () => {
    expect(readTmuxWindow({ PATH: process.env.PATH })).toBeNull();
    expect(readTmuxWindow(env({ TMUX_PANE: "0; rm -rf /" }))).toBeNull();
    expect(readTmuxWindow(env({ TMUX_PANE: "%99" }))).toBeNull();
    expect(readTmuxWindow(env({ TMUX_PANE: "%0", PATH: dir }))).toBeNull();
  });
});
