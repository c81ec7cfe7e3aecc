import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleTestEntry } from "../test/bundle.ts";
import { runNode, type SpawnOptions } from "../test/spawn.ts";

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

async function readAs(stdin: SpawnOptions["stdin"], maxBytes = 1024 * 1024, timeoutMs = 5_000): Promise<{ text?: string; error?: string; code?: string }> {
  const exit = await runNode(reader, { env: {}, args: [String(maxBytes), String(timeoutMs)], stdin });
  expect(exit).toMatchObject({ code: 0, stderr: "" });
  return JSON.parse(exit.stdout);
}

describe.concurrent("readStdin", () => {
  it("reads a pipe to its end", async () => {
    expect(await readAs('{"session_id":"s"}')).toEqual({ text: '{"session_id":"s"}' });
  });

  it("reads a large pipe whole, multi-byte characters intact across reads", async () => {
    const text = "é✓".repeat(300_000);
    expect((await readAs(text, 4 * 1024 * 1024)).text).toBe(text);
  });

  it("refuses a pipe longer than maxBytes", async () => {
    expect(await readAs("x".repeat(200_000), 100_000)).toEqual({ error: "stdin larger than 100000 bytes", code: "BAD_INPUT" });
  });

  it("reads a regular file, and refuses one larger than maxBytes", async () => {
    const path = join(dir, "payload.json");
    writeFileSync(path, '{"from":"file"}');
    const fd = openSync(path, "r");
    try {
      expect(await readAs(fd)).toEqual({ text: '{"from":"file"}' });
      expect(await readAs(fd, 10)).toEqual({ error: "stdin larger than 10 bytes", code: "BAD_INPUT" });
    } finally {
      closeSync(fd);
    }
  });

  it("reads nothing from /dev/null", async () => {
    expect(await readAs("ignore")).toEqual({ text: "" });
  });

  it("gives up on a pipe nobody closes, after timeoutMs, and the process can still end", async () => {
    const exit = await runNode(reader, { env: {}, args: ["1024", "300"], stdin: "open" });
    expect(JSON.parse(exit.stdout)).toEqual({ error: "stdin not closed within 300 ms", code: "BAD_INPUT" });
    expect(exit.killedByTest).toBe(false);
    // Not a clean exit: the blocked read leaves only a signal (see _stdin.ts).
    expect(exit.signal).toBe("SIGKILL");
  });
});
