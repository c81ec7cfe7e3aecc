import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { writeTranscript } from "./lines.ts";

/** A temp dir for one test file's transcripts: made before its tests, removed after them. */
export function transcriptDir(prefix: string) {
  let dir = "";
  let written = 0;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    path: (name: string) => join(dir, name),
    /** Writes the lines (`writeTranscript`) as the dir's next transcript; returns its path. */
    write: (lines: Parameters<typeof writeTranscript>[1], tail = "\n") =>
      writeTranscript(join(dir, `t${++written}.jsonl`), lines, tail),
  };
}
