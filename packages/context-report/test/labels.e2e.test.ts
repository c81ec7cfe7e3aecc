import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateTranscript } from "../../../test-fixtures/transcripts/generate.ts";
import { runContextReport } from "../src/command.ts";
import type { ContextReport } from "../src/model.ts";
import { renderHtml } from "../src/render-html.ts";
import { COMPACTION_COLOR } from "../src/svg-usage.ts";
import { renderPage } from "./chromium.ts";
import { countColor, decodePng, type Image } from "./png.ts";
import { reportWith } from "./report-fixture.ts";

interface Box {
  svg: string;
  className: string;
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

// Runs in Chromium after the page loads: every text box of every chart, as the browser laid it out.
const MEASURE = `<script>
addEventListener("load", () => {
  const boxes = [];
  for (const svg of document.querySelectorAll("svg")) {
    const view = svg.viewBox.baseVal;
    for (const text of svg.querySelectorAll("text")) {
      const box = text.getBBox();
      boxes.push({ svg: svg.id, view: [view.width, view.height], className: text.getAttribute("class") || "",
        text: text.textContent, x: box.x, y: box.y, width: box.width, height: box.height });
    }
  }
  const out = document.createElement("pre");
  out.id = "measured";
  out.textContent = encodeURIComponent(JSON.stringify(boxes));
  document.body.append(out);
});
</script>`;

const REAL = join(
  import.meta.dirname,
  "../../../test-fixtures/real-transcripts/conneroisu__templar__chat-a46211b7.jsonl",
);
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-context-labels-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function laidOut(
  source: string | ContextReport,
  env: Record<string, string> = {},
): Promise<{ boxes: Array<Box & { view: [number, number] }>; image: Image }> {
  const page = join(dir, `${Math.random().toString(36).slice(2)}.html`);
  const io = { isTTY: false, write: () => {} };
  if (typeof source === "string") {
    await runContextReport(
      { target: source, htmlPath: page, json: false },
      { env: { HOME: dir, ...env }, cwd: dir, nowMs: Date.UTC(2026, 10, 29), stdout: io, stderr: io },
    );
  } else writeFileSync(page, renderHtml(source, Date.UTC(2026, 10, 29)));
  // The report itself carries no script; the measuring copy does.
  const measuring = `${page}.measure.html`;
  writeFileSync(measuring, readFileSync(page, "utf8").replace("</body>", `${MEASURE}</body>`));
  const screenshot = `${page}.png`;
  const dom = renderPage(measuring, screenshot, { width: 1100, height: 900 });
  const encoded = /<pre id="measured">([^<]*)<\/pre>/.exec(dom)?.[1];
  if (!encoded) throw new Error("the page's layout was not measured");
  return { boxes: JSON.parse(decodeURIComponent(encoded)), image: decodePng(readFileSync(screenshot)) };
}

function expectLegible(boxes: Array<Box & { view: [number, number] }>): void {
  expect(boxes.length).toBeGreaterThan(0);
  for (const box of boxes) {
    const where = `${box.svg} ${box.className} "${box.text}"`;
    expect(box.x, where).toBeGreaterThanOrEqual(0);
    expect(box.y, where).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, where).toBeLessThanOrEqual(box.view[0]);
    expect(box.y + box.height, where).toBeLessThanOrEqual(box.view[1]);
  }
  for (const [index, a] of boxes.entries()) {
    for (const b of boxes.slice(index + 1)) {
      if (a.svg !== b.svg) continue;
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      expect(apart, `"${a.text}" overlaps "${b.text}" in ${a.svg}`).toBe(true);
    }
  }
}

describe("in Chromium, no chart label is clipped or drawn over another", () => {
  it("seven compactions close together, with the auto-compact line among them", async () => {
    const transcript = join(dir, "many.jsonl");
    generateTranscript(transcript, { targetBytes: 3_000_000, seed: 3, compactions: 7 });
    const { boxes, image } = await laidOut(transcript, { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "200000" });
    expectLegible(boxes);
    const labels = boxes.filter((box) => box.className === "compaction-label");
    expect(labels.length).toBeGreaterThanOrEqual(5);
    // The screenshot shows the compactions drawn.
    expect(countColor(image, COMPACTION_COLOR)).toBeGreaterThan(1_000);
  });

  it("compactions crowded at both edges, the auto-compact point at the top, figures unknown", async () => {
    const series = Array.from({ length: 40 }, (_, index) => ({
      request: index + 1,
      turn: 1,
      contextTokens: 150_000 + index * 1_000,
      inputTokens: 150_000,
      cacheCreationTokens: 0,
      cacheReadTokens: 0,
      outputTokens: 5,
    }));
    const at = (afterRequest: number, trigger = "auto") => ({
      trigger,
      afterRequest,
      preTokens: 1_234_567,
      postTokens: null,
      boundary: false,
    });
    const report = reportWith(
      { messages: { tokens: 1_234_567 } },
      {
        series,
        autoCompactTokens: 1_300_000,
        compactions: [at(0), at(1, "unknown"), at(2), at(3, "manual"), at(29), at(30), at(39, "unknown"), at(40)],
      },
    );
    const { boxes } = await laidOut(report);
    expectLegible(boxes);
    expect(boxes.filter((box) => box.className === "compaction-label").length).toBeGreaterThanOrEqual(6);
  });

  it("a real 1.0.57 session whose compaction has no boundary line", async () => {
    const { boxes } = await laidOut(REAL);
    expectLegible(boxes);
    expect(boxes.find((box) => box.className === "compaction-label")?.text).toBe("unknown: 155.7k → ?");
  });
});
