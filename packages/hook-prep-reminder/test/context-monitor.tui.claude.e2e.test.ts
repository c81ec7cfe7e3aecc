import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createSandbox,
  hasTmux,
  lastMainRequest,
  requestText,
  type Sandbox,
  startTui,
} from "@carryover/test-fixtures/e2e";
import { afterEach, beforeAll, expect, it } from "vitest";

const REMINDER = join(import.meta.dirname, "../dist/carryover-prep-reminder.cjs");
const STATUSLINE = join(import.meta.dirname, "../../hook-statusline/dist/carryover-statusline.cjs");
const CONTEXT =
  "UserPromptSubmit hook additional context: Context usage is at 62% of the auto-compact point (600k of 967k tokens)";
let sandbox: Sandbox | undefined;

beforeAll(() => {
  if (!hasTmux()) throw new Error("tmux is not installed: the TUI e2e tests need it (apt-get install -y tmux)");
});
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

const occurrences = (text: string, part: string) => text.split(part).length - 1;

it("in the TUI: the auto-compact share shown, 60% raised, one reminder, re-armed by /compact", async () => {
  sandbox = await createSandbox({
    settings: {
      statusLine: { type: "command", command: STATUSLINE },
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: REMINDER, timeout: 10 }] }] },
    },
  });
  const box = sandbox;
  const reportTokens = (tokens: number) => writeFileSync(join(box.logDir, "input_tokens"), String(tokens));
  const markers = () => {
    const sessions = join(box.claudeDir, "carryover/sessions");
    const [session] = existsSync(sessions) ? readdirSync(sessions) : [];
    const dir = join(sessions, session ?? "none", "markers");
    return existsSync(dir) ? readdirSync(dir).sort() : [];
  };
  const tui = await startTui(sandbox);
  await tui.waitForScreen(/ctx – · – of 967k to auto-compact · Opus 5\.5/);

  reportTokens(600_000);
  await tui.submit("first prompt");
  await tui.waitForScreen(/ctx 62% · 600k of 967k to auto-compact/);
  expect(markers()).toEqual(["level-60.json"]);
  expect(requestText(lastMainRequest(box.mock.requests()))).not.toContain("Context usage is at");

  await tui.submit("second prompt");
  await tui.waitForScreen(/Context at 62% of the auto-compact point \(600k of 967k tokens\)\. Run \/compact-prep now/);
  expect(occurrences(requestText(lastMainRequest(box.mock.requests())), CONTEXT)).toBe(1);
  expect(markers()).toEqual(["announced-60.json"]);

  await tui.submit("third prompt");
  // The second turn's context stays in the history; no second reminder joins it.
  expect(occurrences(requestText(lastMainRequest(box.mock.requests())), CONTEXT)).toBe(1);

  await tui.submit("/compact");
  await tui.waitForScreen(/ctx 0% · 0 of 967k to auto-compact/);
  expect(markers()).toEqual([]);

  // The mock still reports 600k: re-armed, the level is raised again.
  await tui.submit("fourth prompt");
  await tui.waitForScreen(/ctx 62% · 600k of 967k/);
  expect(markers()).toEqual(["level-60.json"]);
  // The summary replaced the history: the earlier reminder is not carried past the compaction.
  expect(requestText(lastMainRequest(box.mock.requests()))).not.toContain("Context usage is at");
  await tui.submit("fifth prompt");
  expect(occurrences(requestText(lastMainRequest(box.mock.requests())), CONTEXT)).toBe(1);
  expect(markers()).toEqual(["announced-60.json"]);
  expect(box.mock.errors()).toEqual([]);
});
