import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { payloadText } from "@carryover/test-fixtures/payloads";
import { afterEach, beforeEach, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/carryover-statusline.cjs");
const SESSION = "9c6cd707-b302-43ce-83ed-ec04fb1bd89d";
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-statusline-e2e-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function spawnStatusLine(stdin: string, env: Record<string, string> = {}) {
  return spawnSync(BIN, [], {
    input: stdin,
    env: { PATH: process.env.PATH, HOME: home, NO_COLOR: "1", ...env },
    encoding: "utf8",
  });
}

it("the built executable shows the captured 500k-token reading against the auto-compact point and records it", () => {
  const result = spawnStatusLine(payloadText("statusline.json"));
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("ctx 51% · 500k of 967k to auto-compact · Opus 5.5");
  const reading = JSON.parse(readFileSync(join(home, ".claude/carryover/sessions", SESSION, "usage.json"), "utf8"));
  expect(reading).toMatchObject({ source: "statusline", contextTokens: 500_000, autoCompactTokens: 967_000 });
});

it("never opens the transcript: pointed at a FIFO nobody writes, it still answers", () => {
  const transcript = join(home, "transcript.jsonl");
  execFileSync("mkfifo", [transcript]);
  const stdin = JSON.stringify({ ...JSON.parse(payloadText("statusline.json")), transcript_path: transcript });
  const result = spawnSync(BIN, [], {
    input: stdin,
    env: { PATH: process.env.PATH, HOME: home, NO_COLOR: "1" },
    encoding: "utf8",
    timeout: 20_000,
  });
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("ctx 51% · 500k of 967k to auto-compact · Opus 5.5");
});

it("shows a dash for the captured stdin before the first response", () => {
  expect(spawnStatusLine(payloadText("statusline.initial.json")).stdout).toBe(
    "ctx – · – of 967k to auto-compact · Opus 5.5",
  );
});

it("prints a minimal line and exits 0 on garbage, logging why", () => {
  const result = spawnStatusLine("{not json");
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("ctx ?");
  expect(readFileSync(join(home, ".claude/carryover/log/carryover.log"), "utf8")).toMatch(
    /statusline: stdin is not JSON \(9 chars, starts "{not json"\)/,
  );
});

it("chains a command with the same stdin, and shows ours alone when it hangs", () => {
  const stdin = payloadText("statusline.json");
  const echo = spawnStatusLine(stdin, { CARRYOVER_STATUSLINE_CHAIN_COMMAND: "printf 'theirs '; wc -c" });
  expect(echo.stdout).toBe(`ctx 51% · 500k of 967k to auto-compact · Opus 5.5 │ theirs ${Buffer.byteLength(stdin)}`);
  const hang = spawnStatusLine(stdin, {
    CARRYOVER_STATUSLINE_CHAIN_COMMAND: "sleep 30",
    CARRYOVER_STATUSLINE_CHAIN_TIMEOUT_MS: "200",
  });
  expect(hang.status).toBe(0);
  expect(hang.stdout).toBe("ctx 51% · 500k of 967k to auto-compact · Opus 5.5");
});

it("switched off, it shows only the chained status line", () => {
  const result = spawnStatusLine(payloadText("statusline.json"), {
    CARRYOVER: "0",
    CARRYOVER_STATUSLINE_CHAIN_COMMAND: "echo mine",
  });
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("mine");
});
