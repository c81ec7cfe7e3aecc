import { appendFileSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { transcriptSettled } from "./settled.ts";

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-settled-"));
  path = join(dir, "session.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("waits for a line Claude Code writes just after PreCompact starts", async () => {
  writeFileSync(path, '{"n":1}\n');
  const late = setTimeout(() => appendFileSync(path, '{"n":2}\n'), 100);
  await transcriptSettled(path);
  clearTimeout(late);
  expect(readFileSync(path, "utf8")).toBe('{"n":1}\n{"n":2}\n');
});

it("does not wait for a transcript that has been quiet, nor for a missing one", async () => {
  writeFileSync(path, '{"n":1}\n');
  utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const late = setTimeout(() => appendFileSync(path, '{"n":2}\n'), 1_000);
  await transcriptSettled(path);
  await transcriptSettled(join(dir, "missing.jsonl"));
  clearTimeout(late);
  expect(readFileSync(path, "utf8")).toBe('{"n":1}\n');
});

it("gives up waiting on a transcript that never stops changing", async () => {
  writeFileSync(path, "");
  const busy = setInterval(() => appendFileSync(path, "{}\n"), 50);
  try {
    await transcriptSettled(path);
  } finally {
    clearInterval(busy);
  }
  expect(readFileSync(path, "utf8").length).toBeGreaterThan(0);
}, 10_000);
