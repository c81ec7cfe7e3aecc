import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendLedger, type LedgerEntry, ledgerPath, MAX_SUMMARY_CHARS, readLedger, summaryOf } from "./ledger.ts";
import { openSession } from "./session.ts";

const SESSION = "403d97d7-4487-42f5-859f-548a2f3d8b6f";
let home: string;
let env: { HOME: string };
// A new session per call, as a new process would open it: nothing is trusted from an earlier call.
const session = () => openSession(env, SESSION);

function entry(atMs: number, summary = `summary ${atMs}`): LedgerEntry {
  return { atMs, trigger: "auto", promptId: `p-${atMs}`, summary };
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-ledger-"));
  env = { HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("summaryOf", () => {
  it("keeps only the <summary> part of PostCompact's compact_summary, as Claude Code does", () => {
    expect(
      summaryOf(
        "<analysis>mock analysis</analysis>\n" +
          "<summary>MOCK SUMMARY 4: the user asked for things; files were edited.</summary>",
      ),
    ).toBe("MOCK SUMMARY 4: the user asked for things; files were edited.");
  });

  it("takes an unterminated summary to the end, and drops analysis when there is no summary tag", () => {
    expect(summaryOf("<analysis>a</analysis><summary>\n  cut off")).toBe("cut off");
    expect(summaryOf("<analysis>thinking</analysis>\nJust prose.")).toBe("Just prose.");
    expect(summaryOf("")).toBe("");
  });
});

describe("ledger", () => {
  it("is empty for a session without one, creating nothing", () => {
    expect(readLedger(session())).toEqual([]);
    expect(readdirSync(home)).toEqual([]);
  });

  it("appends entries, oldest first, in a private file", () => {
    appendLedger(session(), entry(1), 50);
    appendLedger(session(), entry(2), 50);
    expect(readLedger(session())).toEqual([entry(1), entry(2)]);
    expect(statSync(ledgerPath(session())).mode & 0o777).toBe(0o600);
    expect(ledgerPath(session())).toBe(join(home, ".claude/carryover/sessions", SESSION, "compactions.jsonl"));
  });

  it("keeps at most maxEntries, dropping the oldest", () => {
    for (let atMs = 1; atMs <= 5; atMs++) appendLedger(session(), entry(atMs), 3);
    expect(readLedger(session()).map((kept) => kept.atMs)).toEqual([3, 4, 5]);
    expect(readFileSync(ledgerPath(session()), "utf8").split("\n")).toHaveLength(4);
  });

  it("skips torn and foreign lines", () => {
    appendLedger(session(), entry(1), 50);
    appendFileSync(ledgerPath(session()), '{"atMs":2,"trigger":"auto","summ\n{"other":true}\n\n');
    appendLedger(session(), entry(3), 50);
    expect(readLedger(session()).map((kept) => kept.atMs)).toEqual([1, 3]);
  });

  it("an entry appended after a torn last line (a crash mid-append) is kept whole, the torn line dropped", () => {
    appendLedger(session(), entry(1), 50);
    appendFileSync(ledgerPath(session()), '{"atMs":2,"trigger":"auto","summ');
    appendLedger(session(), entry(3), 50);
    appendLedger(session(), entry(4), 50);
    expect(readLedger(session())).toEqual([entry(1), entry(3), entry(4)]);
  });

  it("keeps a pathological summary only up to MAX_SUMMARY_CHARS, cut visibly", () => {
    appendLedger(session(), entry(1, "x".repeat(10 * 1024 * 1024)), 50);
    const [kept] = readLedger(session());
    expect(kept?.summary).toHaveLength(MAX_SUMMARY_CHARS);
    expect(kept?.summary).toMatch(/^x+\n\[… cut by carryover/);
    expect(statSync(ledgerPath(session())).size).toBeLessThan(MAX_SUMMARY_CHARS + 200);
  });

  it("does not read or append through a symlinked ledger", () => {
    appendLedger(session(), entry(1), 50);
    const victim = join(home, "victim.jsonl");
    writeFileSync(victim, `${JSON.stringify(entry(7, "planted"))}\n`);
    rmSync(ledgerPath(session()));
    symlinkSync(victim, ledgerPath(session()));
    expect(readLedger(session())).toEqual([]);
    expect(() => appendLedger(session(), entry(2), 50)).toThrow();
    expect(readFileSync(victim, "utf8")).toBe(`${JSON.stringify(entry(7, "planted"))}\n`);
  });

  it("keeps a multi-line summary on one line of the file", () => {
    appendLedger(session(), entry(1, "line one\nline two"), 50);
    expect(readFileSync(ledgerPath(session()), "utf8").trimEnd().split("\n")).toHaveLength(1);
    expect(readLedger(session())[0]?.summary).toBe("line one\nline two");
  });
});
