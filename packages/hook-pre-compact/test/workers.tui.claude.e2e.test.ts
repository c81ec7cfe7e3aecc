import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  compactionRequest,
  createSandbox,
  hasTmux,
  mockScript,
  projectSlug,
  requestText,
  type Sandbox,
  startTui,
  waitFor,
} from "@carryover/test-fixtures/e2e";
import { afterEach, beforeAll, expect, it } from "vitest";

const PRE_COMPACT = join(import.meta.dirname, "../dist/carryover-pre-compact.cjs");

let sandbox: Sandbox | undefined;
beforeAll(() => {
  if (!hasTmux()) throw new Error("tmux is not installed: the TUI e2e tests need it (apt-get install -y tmux)");
});
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

it("inside tmux, the snapshot and the summarizer's instructions name the window's other panes", async () => {
  sandbox = await createSandbox({
    settings: { hooks: { PreCompact: [{ hooks: [{ type: "command", command: PRE_COMPACT, timeout: 60 }] }] } },
  });
  const box = sandbox;
  const tui = await startTui(box, { args: ["--allowedTools", "Bash"] });
  const tmux = (...args: string[]) => execFileSync("tmux", ["-S", tui.socket, ...args], { encoding: "utf8" }).trim();
  const panes = ["worker-a", "worker-b"].map((title) => {
    // Small panes: Claude Code's own keeps the room its screen needs.
    const id = tmux(
      "split-window",
      "-d",
      "-l",
      "3",
      "-c",
      box.project,
      "-P",
      "-F",
      "#{pane_id}",
      "-t",
      "main",
      "sleep 300",
    );
    tmux("select-pane", "-t", id, "-T", title);
    return id;
  });
  await tui.submit(`Look ${mockScript([{ tool: "Bash", input: { command: "echo ok" } }, { text: "looked" }])}`);
  await tui.waitForScreen(/looked/);
  await tui.submit("/compact");

  const dir = join(box.home, ".claude/projects", projectSlug(box.project));
  const sessionId = readdirSync(dir)
    .find((name) => name.endsWith(".jsonl"))!
    .replace(/\.jsonl$/, "");
  const snapshotPath = join(box.home, ".claude/carryover/sessions", sessionId, "snapshot.md");
  await waitFor(() => (existsSync(snapshotPath) && box.mock.compactionRequests().length > 0 ? true : undefined), {
    description: "the mechanical snapshot and the compaction request",
  });
  const topology = readFileSync(snapshotPath, "utf8").split("## Worker Topology\n\n")[1]!.split("\n## ")[0]!;
  const [windowLine, ownPane] = topology.split("\n");
  expect(windowLine).toMatch(/^tmux window @\d+ “[^”]*” of session “main”:$/);
  expect(ownPane).toMatch(/^- pane `%0` “[^”]*” \(this Claude Code session\) — running `[^`]+` in \.$/);
  expect(topology).toContain(`- pane \`${panes[0]}\` “worker-a” — running \`sleep\` in .\n`);
  expect(topology).toContain(`- pane \`${panes[1]}\` “worker-b” — running \`sleep\` in .\n`);
  const instructions = requestText(compactionRequest(box.mock.requests(), 0));
  expect(instructions).toContain(`tmux pane \`${panes[0]}\` (“worker-a”, \`sleep\`)`);
  expect(instructions).toContain(`tmux pane \`${panes[1]}\` (“worker-b”, \`sleep\`)`);
});
