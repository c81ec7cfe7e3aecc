import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { projectSlug } from "@carryover/core";
import { payloadPath } from "@carryover/test-fixtures/payloads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CommandIO, contextMain } from "./command.ts";
import type { ContextReport } from "./model.ts";

// The captured auto-compaction session: the mock reported 100, 100, 70,000 input tokens, compacted, then 100.
const SESSION = "403d97d7-4487-42f5-859f-548a2f3d8b6f";
let root: string;
let home: string;
let project: string;
let transcript: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-context-"));
  home = join(root, "home");
  project = join(root, "proj");
  mkdirSync(project, { recursive: true });
  const dir = join(home, ".claude", "projects", projectSlug(project));
  mkdirSync(dir, { recursive: true });
  transcript = join(dir, `${SESSION}.jsonl`);
  copyFileSync(payloadPath("transcript-sample.auto-compact.jsonl"), transcript);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function run(args: string[], options: { env?: Record<string, string>; cwd?: string; isTTY?: boolean } = {}) {
  const output = { stdout: "", stderr: "" };
  const io: CommandIO = {
    env: { HOME: home, CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000", ...options.env },
    cwd: options.cwd ?? root,
    nowMs: () => Date.UTC(2026, 10, 29, 12),
    stdout: { isTTY: options.isTTY ?? false, columns: 100, write: (text) => void (output.stdout += text) },
    stderr: { isTTY: false, write: (text) => void (output.stderr += text) },
  };
  const code = await contextMain(args, io);
  return { code, ...output };
}

describe("carryover context", () => {
  it("--json by session id: the usage series and the compaction are the ones the transcript recorded", async () => {
    const { code, stdout, stderr } = await run([SESSION, "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as ContextReport;
    expect(report.transcriptPath).toBe(transcript);
    expect(report.sessionId).toBe(SESSION);
    expect(report.series.map((point) => point.contextTokens)).toEqual([100, 100, 70_000, 100]);
    expect(report.compactions).toEqual([{ trigger: "auto", afterRequest: 3, atMs: Date.parse("2026-11-29T17:14:24.845Z"), preTokens: 70_005, postTokens: 2_616 }]);
    expect(report.measuredTokens).toBe(100);
    expect(report.autoCompactTokens).toBe(67_000);
    expect(report.turns).toHaveLength(1);
    expect(report.categories.find((category) => category.id === "toolResults")!.parts.map((part) => part.label)).toEqual(["Bash"]);
  });

  it("takes a transcript path, and without an argument the session it runs in or the newest of the current directory", async () => {
    for (const [args, env, cwd] of [
      [[transcript], {}, root],
      [[], { CLAUDE_CODE_SESSION_ID: SESSION }, root],
      [[], {}, project],
    ] as const) {
      const { code, stdout } = await run([...args, "--json"], { env, cwd });
      expect(code).toBe(0);
      expect(JSON.parse(stdout).transcriptPath).toBe(transcript);
    }
  });

  it("prints the table, in colour only on a terminal without NO_COLOR", async () => {
    const plain = await run([SESSION]);
    expect(plain.stdout).toContain("Over time: 4 requests, 1 turns, 1 compaction (auto-compact at 67,000)");
    expect(plain.stdout).not.toContain("\u001b[");
    expect((await run([SESSION], { isTTY: true })).stdout).toContain("\u001b[");
    expect((await run([SESSION], { isTTY: true, env: { NO_COLOR: "1" } })).stdout).not.toContain("\u001b[");
  });

  it("--html writes the page, replaces its own earlier page, refuses to overwrite anything else", async () => {
    const page = join(root, "report.html");
    expect(await run([SESSION, "--html", page])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^wrote .*report\.html \(\d+ KiB\)\n$/) });
    expect(readFileSync(page, "utf8")).toContain('<svg id="usage-chart"');
    expect((await run([SESSION, `--html=${page}`])).code).toBe(0);
    const notes = join(root, "notes.html");
    writeFileSync(notes, "<p>my notes</p>");
    const refused = await run([SESSION, "--html", notes]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`carryover context: ${notes} exists and is not a carryover context report; choose another file or remove it\n`);
    expect(readFileSync(notes, "utf8")).toBe("<p>my notes</p>");
  });

  it("one clear line and a non-zero exit for a bad argument", async () => {
    expect(await run(["0000-missing"])).toEqual({ code: 1, stdout: "", stderr: `carryover context: no transcript for session 0000-missing under ${join(home, ".claude", "projects")}\n` });
    expect(await run(["../nope.jsonl"])).toMatchObject({ code: 1, stderr: `carryover context: no transcript file at ${resolve(root, "../nope.jsonl")}\n` });
    expect(await run(["a b"])).toMatchObject({ code: 1, stderr: 'carryover context: "a b" is neither a transcript path nor a session id\n' });
    const unknown = await run(["--pdf"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^carryover context: unknown option --pdf\nUsage: carryover context/);
    expect((await run(["--html"])).stderr).toMatch(/^carryover context: --html needs a file name\n/);
  });

  it("--help prints the usage", async () => {
    expect(await run(["--help"])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: carryover context \[SESSION_ID \| TRANSCRIPT\] \[--html FILE\] \[--json\]/) });
  });
});
