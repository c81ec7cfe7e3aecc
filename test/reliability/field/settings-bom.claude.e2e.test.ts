// #17.5: a settings.json that starts with a UTF-8 BOM, as Windows editors save it. Observed on Claude Code 2.1.332:
// the file is honoured as any other (its hooks run, its autoCompactWindow moves the auto-compact point: 70k tokens
// auto-compact under autoCompactWindow 100000 with the BOM, where the 1M window would not).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, expect, test } from "vitest";
import { createSandbox, hasTmux, requestText, type Sandbox, startTui } from "../../../test-fixtures/e2e/index.ts";
import { recordFigures } from "../figures.ts";
import { carryoverHooks, carryoverStatusLine } from "./_field.ts";

let sandbox: Sandbox | undefined;
beforeAll(() => {
  if (!hasTmux()) throw new Error("tmux is not installed: this check drives the TUI (apt-get install -y tmux)");
});
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

test("the status line and the reminder read autoCompactWindow from a settings.json with a BOM", async () => {
  sandbox = await createSandbox();
  const s = sandbox;
  const settings = {
    autoCompactWindow: 200_000,
    statusLine: carryoverStatusLine(),
    hooks: carryoverHooks("prep-reminder"),
  };
  writeFileSync(s.settingsPath, `\uFEFF${JSON.stringify(settings, null, 2)}\n`);
  // 120k of the 167k that autoCompactWindow 200,000 leaves before auto-compaction: 71%, past the 60% level.
  writeFileSync(join(s.logDir, "input_tokens"), "120000");
  const tui = await startTui(s);
  await tui.submit("first prompt");

  const screen = await tui.waitForScreen(/ctx \d+% · 120k/);
  expect(screen).toMatch(/ctx 71% · 120k of 167k to auto-compact/);
  await tui.submit("second prompt");
  const reminded = requestText(s.mock.mainRequests().at(-1)!);
  expect(reminded).toContain("Context usage is at 71% of the auto-compact point");
  recordFigures("field-settings-bom", { shown: "ctx 71% · 120k of 167k", reminded: true });
});
