import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createSandbox,
  hasTmux,
  probeStatusLine,
  readProbeLog,
  type Sandbox,
  startTui,
} from "@carryover/test-fixtures/e2e";
import { afterEach, beforeAll, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/carryover-statusline.cjs");
let sandbox: Sandbox | undefined;

beforeAll(() => {
  if (!hasTmux()) throw new Error("tmux is not installed: the TUI e2e tests need it (apt-get install -y tmux)");
});
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

it("on the real TUI a chained status line shows beside ours; ours still shows when it hangs", async () => {
  sandbox = await createSandbox({ settings: { statusLine: { type: "command", command: BIN } } });
  const box = sandbox;
  const chainedLog = join(box.logDir, "chained.jsonl");
  const configure = (statusline: Record<string, unknown>) => {
    mkdirSync(join(box.claudeDir, "carryover"), { recursive: true });
    writeFileSync(join(box.claudeDir, "carryover/config.json"), JSON.stringify({ statusline }));
  };
  // The user's own status line: the probe, which prints Claude Code's own used_percentage.
  configure({ chainCommand: probeStatusLine(chainedLog).command });
  const tui = await startTui(sandbox);
  await tui.waitForScreen(/ctx – · – of 967k to auto-compact · Opus 5\.5 │ PROBE-STATUS -/);

  writeFileSync(join(box.logDir, "input_tokens"), "500000");
  await tui.submit("hello");
  await tui.waitForScreen(/ctx 51% · 500k of 967k to auto-compact · Opus 5\.5 │ PROBE-STATUS 50/);
  // The chained command got Claude Code's own stdin, fields carryover does not read included.
  expect(readProbeLog(chainedLog).at(-1)).toMatchObject({
    context_window: { used_percentage: 50, current_usage: { input_tokens: 500_000 } },
    prompt_cache: { requests: expect.any(Number) },
  });

  configure({ chainCommand: "sleep 30", chainTimeoutMs: 300 });
  writeFileSync(join(box.logDir, "input_tokens"), "600000");
  await tui.submit("again");
  const screen = await tui.waitForScreen(/ctx 62% · 600k of 967k to auto-compact · Opus 5\.5/);
  expect(screen).not.toContain("PROBE-STATUS");
});
