// #17.4: carryover never crowds MEMORY.md. Claude Code 2.1.332 loads its first 200 lines, cut to the whole lines
// that fit in 25,000 characters; what is past that is silently not loaded. Many sessions compacting in one project
// (the built pre-compact, fed Claude Code's captured PreCompact payload and a transcript of its own each), then a
// disk that fills up in the middle of an append (a real tmpfs of a few pages; mounting it needs root).
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  appendFileSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { payloadPath } from "../../../test-fixtures/payloads/index.ts";
import { recordFigures } from "../figures.ts";
import { hookExecutable } from "../hooks.ts";
import { capturedPayloads } from "../payloads.ts";
import { createSandbox, type Sandbox } from "../sandbox.ts";
import { mapLimit, runFile } from "../spawn.ts";

const SESSIONS = 210;
const USER_LINES = Array.from({ length: 3 }, (_, i) => `- [Fact ${i + 1}](fact-${i + 1}.md) — the user's own memory`);
const PAGE = 4096;

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox("field-memory");
});
afterEach(() => sandbox.cleanup());

async function compact(sessionId: string): Promise<void> {
  copyFileSync(payloadPath("transcript-sample.jsonl"), join(sandbox.transcriptsDir, `${sessionId}.jsonl`));
  const payload = {
    ...capturedPayloads("PreCompact", sandbox)[0]!,
    session_id: sessionId,
    transcript_path: join(sandbox.transcriptsDir, `${sessionId}.jsonl`),
  };
  const run = await runFile(hookExecutable("pre-compact"), {
    env: sandbox.env,
    cwd: sandbox.project,
    stdin: JSON.stringify(payload),
    deadlineMs: 30_000,
  });
  expect(run.code).toBe(0);
}

const carryoverLines = (text: string) => text.split("\n").filter((line) => line.includes("](carryover-"));

test(`${SESSIONS} sessions compacting leave carryover a fixed few lines in MEMORY.md`, async () => {
  mkdirSync(sandbox.memoryDir, { recursive: true });
  writeFileSync(join(sandbox.memoryDir, "MEMORY.md"), `${USER_LINES.join("\n")}\n`);
  const counts: number[] = [];
  await mapLimit(
    Array.from({ length: SESSIONS }, () => randomUUID()),
    2,
    async (sessionId) => {
      await compact(sessionId);
      counts.push(carryoverLines(readFileSync(join(sandbox.memoryDir, "MEMORY.md"), "utf8")).length);
    },
  );
  const text = readFileSync(join(sandbox.memoryDir, "MEMORY.md"), "utf8");
  const lines = text.trimEnd().split("\n");
  expect(text.startsWith(`${USER_LINES.join("\n")}\n`)).toBe(true);
  // Within what Claude Code loads: 200 lines, 25,000 characters.
  expect(lines.length).toBeLessThanOrEqual(200);
  expect(text.trimEnd().length).toBeLessThanOrEqual(25_000);
  // As many after the last session as after the first: the number does not grow with the sessions.
  expect(new Set(counts).size).toBe(1);
  expect(counts[0]).toBeGreaterThan(0);
  expect(counts[0]).toBeLessThanOrEqual(3);
  // Whatever carryover keeps about older sessions lives in its own topic files, not in MEMORY.md.
  expect(readdirSync(sandbox.memoryDir).filter((name) => name.startsWith("carryover-")).length).toBeGreaterThan(0);
  recordFigures("field-memory-bounds", {
    sessions: SESSIONS,
    carryoverLines: counts[0],
    lines: lines.length,
    chars: text.trimEnd().length,
  });
}, 600_000);

describe.skipIf(process.getuid?.() !== 0)("a disk that fills up mid-append (root only: mounts a tmpfs)", () => {
  let mounted = false;
  afterEach(() => {
    if (mounted) execFileSync("umount", [sandbox.memoryDir]);
    mounted = false;
  });

  test("MEMORY.md keeps whole lines, and the next memory added is a line of its own", async () => {
    mkdirSync(sandbox.memoryDir, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", sandbox.memoryDir]);
    mounted = true;
    const index = join(sandbox.memoryDir, "MEMORY.md");
    // The user's lines end 10 bytes short of a page: an append of more needs a page the disk no longer has.
    const lines = `${USER_LINES.join("\n")}\n`;
    writeFileSync(index, `${lines}${padding(PAGE - 10 - lines.length)}`);
    const before = readFileSync(index, "utf8");
    expect(before.length).toBe(PAGE - 10);
    fillDisk(join(sandbox.memoryDir, "filler"), 1);

    await compact(randomUUID());

    const after = readFileSync(index, "utf8");
    expect(after.slice(before.length), "what the full disk left after the user's lines").toMatch(/^(.*\n)*$/);
    expect(after.startsWith(before)).toBe(true);
    rmSync(join(sandbox.memoryDir, "filler"));
    appendFileSync(index, "- [Next memory](next.md) — added after the disk had room again\n");
    expect(readFileSync(index, "utf8").split("\n")).toContain(
      "- [Next memory](next.md) — added after the disk had room again",
    );
    const log = readFileSync(join(sandbox.home, ".claude", "carryover", "log", "carryover.log"), "utf8");
    expect(log).toMatch(/pre-compact: memory entry: .*ENOSPC/);
    recordFigures("field-memory-full-disk", { tornLines: 0 });
  });
});

/** A line of exactly `chars` characters, its newline included. */
function padding(chars: number): string {
  const head = "- [Padding](padding.md) ";
  return `${head}${"x".repeat(chars - head.length - 1)}\n`;
}

/** Fills the filesystem holding `path`, then frees `freePages` pages (4 KiB each) of it again. */
function fillDisk(path: string, freePages: number): void {
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(PAGE, 0x61);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
  truncateSync(path, Math.max(0, written - freePages * PAGE));
}
