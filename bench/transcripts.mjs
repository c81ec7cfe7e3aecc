import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Synthetic transcripts for one bench run, generated on first use into a temp dir and removed at the
 * end: never committed, never reused across runs (so a generator change is always measured).
 */
export function transcriptStore(kit, samplePath, log) {
  const dir = mkdtempSync(join(tmpdir(), "carryover-bench-transcripts-"));
  const made = new Map();
  const generate = (bytes, compactions) => {
    const key = `${bytes}`;
    if (!made.has(key)) {
      const path = join(dir, `${(bytes / 1e6).toFixed(0)}mb.jsonl`);
      log(`generating a ${(bytes / 1e6).toFixed(0)} MB transcript`);
      const truth = kit.generateTranscript(path, { targetBytes: bytes, seed: 8, compactions, samplePath });
      made.set(key, { path, truth });
    }
    return made.get(key);
  };
  return {
    generate,
    /** `times` copies of a generated file back to back: a big file fast, with a real tail. */
    repeated(bytes, times) {
      const key = `${bytes}x${times}`;
      if (!made.has(key)) {
        const source = generate(bytes, 3);
        const path = join(dir, `${((bytes * times) / 1e9).toFixed(0)}gb.jsonl`);
        log(`writing ${path} (${times} × ${(bytes / 1e6).toFixed(0)} MB)`);
        const content = readFileSync(source.path);
        const fd = openSync(path, "w");
        try {
          for (let i = 0; i < times; i++) {
            for (let offset = 0; offset < content.length; ) offset += writeSync(fd, content, offset);
          }
        } finally {
          closeSync(fd);
        }
        made.set(key, { path, truth: { bytes: statSync(path).size } });
      }
      return made.get(key);
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
