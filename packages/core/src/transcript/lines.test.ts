import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { forEachTranscriptLine } from "./lines.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-lines-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("hands over the lines holding a needle, in order, save those whose head holds a skip string; progress", async () => {
  const path = join(dir, "t.jsonl");
  const lines = [
    '{"type":"api-request-blob","message":{"type":"user"}}',
    '{"parentUuid":null,"type":"user","message":"one"}',
    '{"type":"queue-operation"}',
    `{"parentUuid":"a","attachment":{"type":"prompt_snapshot"},"type":"attachment","pad":"${"x".repeat(300)}"}`,
    '{"parentUuid":"b","type":"assistant","message":"two"}',
  ];
  writeFileSync(path, `${lines.join("\n")}\n`);
  const seen: string[] = [];
  const progress: Array<[number, number]> = [];
  const stats = await forEachTranscriptLine(path, {
    needles: ['"type":"user"', '"type":"assistant"', '"type":"attachment"'],
    skipHeads: ['{"type":"api-request-blob"', '"attachment":{"type":"prompt_snapshot"'],
    onLine: (line) => seen.push(line),
    onProgress: (bytesRead, totalBytes) => progress.push([bytesRead, totalBytes]),
  });
  expect(seen).toEqual([lines[1], lines[4]]);
  const size = Buffer.byteLength(`${lines.join("\n")}\n`);
  expect(stats).toEqual({ totalBytes: size, bytesRead: size, longLines: 0, unterminatedTail: false });
  expect(progress).toEqual([[size, size]]);
});
