// Transcripts as they come: cut off, with a 100 MB line, invalid UTF-8, missing, still being written.
// The scanner finishes every time and says what it skipped.

import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { scanTranscript } from "../../packages/core/src/index.ts";
import { payloadPath } from "../../test-fixtures/payloads/index.ts";
import { generateTranscript } from "../../test-fixtures/transcripts/generate.ts";
import { callLine, resultLine } from "../../test-fixtures/transcripts/lines.ts";
import { recordFigures } from "./figures.ts";
import { createSandbox, type Sandbox } from "./sandbox.ts";

const MIB = 1024 * 1024;
let sandbox: Sandbox;
const figures: Record<string, unknown> = {};
const sample = () => readFileSync(payloadPath("transcript-sample.jsonl"));

beforeAll(() => {
  sandbox = createSandbox("transcripts");
});
afterAll(() => {
  recordFigures("transcripts", figures);
  sandbox.cleanup();
});

const file = (name: string) => join(sandbox.root, name);
const commandsOf = (facts: Awaited<ReturnType<typeof scanTranscript>>) => facts.commands.map((entry) => entry.command);
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe("scanTranscript on damaged and unusual transcripts", () => {
  test("a truncated last line: counted as a torn tail, everything before it read", async () => {
    const whole = await scanTranscript(payloadPath("transcript-sample.jsonl"));
    const path = file("truncated.jsonl");
    writeFileSync(
      path,
      Buffer.concat([
        sample(),
        Buffer.from(
          '{"parentUuid":"x","type":"assistant",' +
            '"message":{"content":[{"type":"tool_use","id":"toolu_cut","name":"Bash","inp',
        ),
      ]),
    );
    const facts = await scanTranscript(path);
    expect(facts.skipped).toMatchObject({ truncatedTail: true, badLines: 1 });
    expect(commandsOf(facts)).toEqual(commandsOf(whole));
    expect(facts.filesChanged).toEqual(whole.filesChanged);
    figures.truncatedLastLine = facts.skipped;
  });

  test("a 100 MB line among ordinary ones: passed over (memory stays bounded), the lines around it read", async () => {
    const path = file("long-line.jsonl");
    const fd = openSync(path, "w");
    writeSync(fd, line(callLine("a", "Bash", { command: "before" })) + line(resultLine("a", "ok")));
    // One tool result of 100 MB that even holds a needle, written a MiB at a time.
    writeSync(
      fd,
      '{"parentUuid":"x","type":"user","message":{"content":[{"type":"tool_result","is_error":true,"content":"',
    );
    const chunk = Buffer.alloc(MIB, "x");
    for (let written = 0; written < 100 * MIB; written += MIB) writeSync(fd, chunk);
    writeSync(fd, '"}]}}\n');
    writeSync(fd, line(callLine("b", "Bash", { command: "after" })) + line(resultLine("b", "ok")));
    closeSync(fd);
    const facts = await scanTranscript(path);
    expect(commandsOf(facts)).toEqual(["before", "after"]);
    expect(facts.skipped).toMatchObject({ longLines: 1, badLines: 0, truncatedTail: false });
    expect(facts.bytesRead).toBeGreaterThan(100 * MIB);
    figures.hundredMegabyteLine = facts.skipped;
  });

  test("a file that is one 100 MB line with no newline at all: finishes, one long line skipped", async () => {
    const path = file("one-line.jsonl");
    const fd = openSync(path, "w");
    const chunk = Buffer.alloc(MIB, '{"type":"tool_use","id":"');
    for (let written = 0; written < 100 * MIB; written += MIB) writeSync(fd, chunk);
    closeSync(fd);
    const facts = await scanTranscript(path);
    expect(facts.skipped).toMatchObject({ longLines: 1, badLines: 0 });
    expect(facts.commands).toEqual([]);
    figures.hundredMegabyteFileWithoutNewline = facts.skipped;
  });

  test("invalid UTF-8 in a string reads as U+FFFD; in the JSON structure it makes the line a bad one", async () => {
    const path = file("invalid-utf8.jsonl");
    const good = Buffer.from(line(callLine("a", "Bash", { command: "echo BYTES" })));
    const at = good.indexOf("BYTES");
    const withBadString = Buffer.concat([
      good.subarray(0, at),
      Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
      good.subarray(at),
    ]);
    const broken = Buffer.concat([
      Buffer.from(
        '{"type":"assistant",\xff\xfe' +
          '"message":{"content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"x"}}]}}\n',
        "latin1",
      ),
    ]);
    writeFileSync(
      path,
      Buffer.concat([
        withBadString,
        Buffer.from(line(resultLine("a", "ok"))),
        broken,
        Buffer.from(line(callLine("c", "Bash", { command: "still read" }))),
        Buffer.from(line(resultLine("c", "ok"))),
      ]),
    );
    const facts = await scanTranscript(path);
    expect(commandsOf(facts)).toEqual(["echo \ufffd(\ufffd\ufffdBYTES", "still read"]);
    expect(facts.skipped).toMatchObject({ badLines: 1, truncatedTail: false });
    figures.invalidUtf8 = facts.skipped;
  });

  // Each hook then logs that it worked without the transcript.
  test("a missing file: rejected with an error naming it", async () => {
    const path = file("missing.jsonl");
    await expect(scanTranscript(path)).rejects.toThrow(
      expect.objectContaining({ code: "ENOENT", message: expect.stringContaining(path) }),
    );
    figures.missingFile = "rejected: ENOENT naming the path";
  });

  test("a file being written: a scan amid appends ends with what was there; a half-written line flagged", async () => {
    const path = file("growing.jsonl");
    generateTranscript(path, { targetBytes: 20_000_000, compactions: 1, seed: 7 });
    const initialBytes = readFileSync(path).length;
    let appending = true;
    let appended = 0;
    const writer = (async () => {
      while (appending) {
        await appendFile(
          path,
          line(callLine(`w${appended}`, "Bash", { command: `written during the scan ${appended}` })) +
            line(resultLine(`w${appended}`, "ok")),
        );
        appended += 1;
      }
    })();
    const during = await scanTranscript(path);
    appending = false;
    await writer;
    expect(during.bytesRead).toBeGreaterThanOrEqual(initialBytes);
    expect(appended).toBeGreaterThan(0);

    await appendFile(
      path,
      '{"parentUuid":"x","type":"assistant",' +
        '"message":{"content":[{"type":"tool_use","id":"half","name":"Bash","input":{"comm',
    );
    const halfWritten = await scanTranscript(path);
    expect(halfWritten.skipped).toMatchObject({ truncatedTail: true, badLines: 1 });
    await appendFile(path, 'and":"finished later"}}]}}\n');
    const finished = await scanTranscript(path);
    expect(finished.skipped).toMatchObject({ truncatedTail: false, badLines: 0 });
    expect(commandsOf(finished)).toContain("finished later");
    figures.stillBeingWritten = {
      appendsDuringScan: appended,
      halfWrittenTail: halfWritten.skipped,
      afterCompletion: finished.skipped,
    };
  }, 60_000);
});
