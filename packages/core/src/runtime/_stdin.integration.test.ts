import { spawnSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleTestEntry } from "../../test/bundle.ts";
import { runNode, type SpawnOptions } from "../../test/spawn.ts";
import { readStdinSync } from "./_stdin.ts";

let reader: string;
let dir: string;

beforeAll(async () => {
  reader = await bundleTestEntry("stdin-reader");
  dir = mkdtempSync(join(tmpdir(), "carryover-stdin-"));
});
afterAll(() => {
  rmSync(dirname(reader), { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

async function readAs(
  stdin: SpawnOptions["stdin"],
  maxBytes = 1024 * 1024,
  timeoutMs = 5_000,
): Promise<{ text?: string; error?: string; code?: string }> {
  const exit = await runNode(reader, { env: {}, args: [String(maxBytes), String(timeoutMs)], stdin });
  expect(exit).toMatchObject({ code: 0, stderr: "" });
  return JSON.parse(exit.stdout);
}

describe.concurrent("readStdinSync", () => {
  it("reads a pipe to its end", async () => {
    expect(await readAs('{"session_id":"s"}')).toEqual({ text: '{"session_id":"s"}' });
  });

  it("reads a large pipe whole, multi-byte characters intact across reads", async () => {
    const text = "é✓".repeat(300_000);
    expect((await readAs(text, 4 * 1024 * 1024)).text).toBe(text);
  });

  it("refuses a pipe longer than maxBytes", async () => {
    expect(await readAs("x".repeat(200_000), 100_000)).toEqual({
      error: "stdin larger than 100000 bytes",
      code: "BAD_INPUT",
    });
  });

  it("reads a regular file, and refuses one larger than maxBytes", async () => {
    const path = join(dir, "payload.json");
    writeFileSync(path, '{"from":"file"}');
    const readFile = async (maxBytes?: number) => {
      const fd = openSync(path, "r");
      try {
        return await readAs(fd, maxBytes);
      } finally {
        closeSync(fd);
      }
    };
    expect(await readFile()).toEqual({ text: '{"from":"file"}' });
    expect(await readFile(10)).toEqual({ error: "stdin larger than 10 bytes", code: "BAD_INPUT" });
  });

  it("reads nothing from /dev/null", async () => {
    expect(await readAs("ignore")).toEqual({ text: "" });
  });

  it("gives up on a non-blocking stdin that stays empty, after timeoutMs", () => {
    // In-process: a libuv parent (Node, Bun) makes a child's stdin blocking. A FIFO opened read-write and
    // non-blocking is never at end of file, and every read of it says EAGAIN.
    const fifo = join(dir, "fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      const startMs = Date.now();
      expect(() => readStdinSync({ maxBytes: 1024, timeoutMs: 200 }, fd)).toThrow(
        expect.objectContaining({ message: "stdin not closed within 200 ms", code: "BAD_INPUT" }),
      );
      expect(Date.now() - startMs).toBeGreaterThanOrEqual(200);
    } finally {
      closeSync(fd);
    }
  });
});
