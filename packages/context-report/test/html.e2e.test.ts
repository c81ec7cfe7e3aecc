import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { payloadPath } from "@carryover/test-fixtures/payloads";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runContextReport } from "../src/command.ts";
import { CATEGORY_COLORS } from "../src/svg-breakdown.ts";
import { AUTO_COMPACT_COLOR, COMPACTION_COLOR, USAGE_LINE_COLOR } from "../src/svg-usage.ts";
import { renderPage } from "./chromium.ts";
import { countColor, decodePng } from "./png.ts";

let dir: string;
let dom: string;
let screenshot: string;

// The captured auto-compaction session, reported with its auto-compact point (window 100,000 → 67,000).
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "carryover-context-html-"));
  const transcript = join(dir, "session.jsonl");
  copyFileSync(payloadPath("transcript-sample.auto-compact.jsonl"), transcript);
  const page = join(dir, "report.html");
  await runContextReport(
    { target: transcript, htmlPath: page, json: false },
    {
      env: { HOME: dir, CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" },
      cwd: dir,
      nowMs: Date.UTC(2026, 10, 29),
      stdout: { isTTY: false, write: () => {} },
      stderr: { isTTY: false, write: () => {} },
    },
  );
  screenshot = join(dir, "report.png");
  dom = renderPage(page, screenshot);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("Chromium renders both charts: a point per request, the auto-compact line, the compaction, category bars", () => {
  expect(dom.match(/<circle class="usage-point"/g)).toHaveLength(4);
  expect(dom).toMatch(/<line class="auto-compact" data-tokens="67000"/);
  expect(dom).toMatch(
    /<g class="compaction" data-index="1" data-trigger="auto" data-pre-tokens="70005" data-post-tokens="2616">/,
  );
  expect(dom.match(/<rect class="category-bar/g)).toHaveLength(7);
  expect(dom).toContain("auto-compact at 67,000");
});

it("the screenshot shows the page at its size with the charts' colours on it", () => {
  expect(existsSync(screenshot)).toBe(true);
  const image = decodePng(readFileSync(screenshot));
  expect([image.width, image.height]).toEqual([1100, 1400]);
  expect(countColor(image, USAGE_LINE_COLOR)).toBeGreaterThan(500);
  expect(countColor(image, AUTO_COMPACT_COLOR)).toBeGreaterThan(300);
  expect(countColor(image, COMPACTION_COLOR)).toBeGreaterThan(200);
  expect(countColor(image, CATEGORY_COLORS.tools)).toBeGreaterThan(1_000);
});
