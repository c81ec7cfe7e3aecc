import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type GeneratedTruth, generateTranscript } from "../../../test-fixtures/transcripts/generate.ts";
import { runContextReport } from "./command.ts";
import type { ContextReport } from "./model.ts";

let dir: string;
let path: string;
let truth: GeneratedTruth;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-context-large-"));
  path = join(dir, "generated.jsonl");
  truth = generateTranscript(path, { targetBytes: 36_000_000, compactions: 3, seed: 7, tornTail: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("streams a 36 MB transcript: all compactions found, progress on a terminal, cleared before the report", async () => {
  let stdout = "";
  let stderr = "";
  await runContextReport(
    { target: path, json: true },
    {
      env: { HOME: dir },
      cwd: dir,
      nowMs: 0,
      stdout: {
        isTTY: false,
        write: (text) => {
          stdout += text;
        },
      },
      stderr: {
        isTTY: true,
        write: (text) => {
          stderr += text;
        },
      },
    },
  );
  const report = JSON.parse(stdout) as ContextReport;
  expect(report.transcriptBytes).toBe(truth.bytes);
  expect(report.compactions).toHaveLength(truth.compactions);
  expect(report.series.length).toBeGreaterThan(100);
  expect(report.categories.find((category) => category.id === "toolResults")!.tokens).toBeGreaterThan(0);
  expect(stderr).toMatch(/^\r\u001b\[Kreading transcript +\d+% \([\d.]+ MiB of 34\.\d MiB\)/);
  expect(stderr.endsWith("\r\u001b[K")).toBe(true);
});
