// #17.7: a user's status line that refreshes something in the background, `( refresh ) &` without redirecting its
// stdout. Observed on Claude Code 2.1.332 with that command as its own status line: the line shows as soon as the
// shell exits (about a second after start-up here), the job runs on to its end, and what the job prints later is
// not shown. Through carryover's chainCommand the same must hold.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, expect, test } from "vitest";
import { createSandbox, hasTmux, type Sandbox, startTui, waitFor } from "../../../test-fixtures/e2e/index.ts";
import { recordFigures } from "../figures.ts";
import { carryoverStatusLine } from "./_field.ts";

let sandbox: Sandbox | undefined;
beforeAll(() => {
  if (!hasTmux()) throw new Error("tmux is not installed: this check drives the TUI (apt-get install -y tmux)");
});
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

test("the user's chained line shows beside carryover's, and the job it starts runs on", async () => {
  sandbox = await createSandbox({ settings: {} });
  const s = sandbox;
  const done = join(s.root, "refresh-done");
  // The job outlives carryover's 1 s chainTimeoutMs, prints to the inherited stdout, then leaves its mark.
  const chainCommand = `( sleep 3; echo LATE-OUTPUT; touch '${done}' ) & echo USER-LINE`;
  mkdirSync(join(s.claudeDir, "carryover"), { recursive: true, mode: 0o700 });
  writeFileSync(join(s.claudeDir, "carryover", "config.json"), JSON.stringify({ statusline: { chainCommand } }));
  s.writeSettings({ statusLine: carryoverStatusLine() });

  const tui = await startTui(s);
  const screen = await tui.waitForScreen(/ctx .*USER-LINE|USER-LINE.*ctx /, { timeoutMs: 15_000 });
  expect(screen).not.toContain("LATE-OUTPUT");
  await waitFor(() => (existsSync(done) ? true : undefined), {
    timeoutMs: 15_000,
    description: "the background job to finish",
  });
  recordFigures("field-chained-status-line", { userLineShown: true, jobFinished: true });
});
