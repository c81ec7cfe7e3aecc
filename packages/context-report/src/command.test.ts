import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { projectSlug } from "@carryover/core";
import { payloadPath } from "@carryover/test-fixtures/payloads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CommandIO, type ContextOptions, runContextReport } from "./command.ts";
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

async function run(
  options: ContextOptions,
  { env = {}, cwd = root, isTTY = false }: { env?: Record<string, string>; cwd?: string; isTTY?: boolean } = {},
) {
  const output = { stdout: "", stderr: "" };
  const io: CommandIO = {
    env: { HOME: home, CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000", ...env },
    cwd,
    nowMs: Date.UTC(2026, 10, 29, 12),
    stdout: {
      isTTY,
      columns: 100,
      write: (text) => {
        output.stdout += text;
      },
    },
    stderr: {
      isTTY: false,
      write: (text) => {
        output.stderr += text;
      },
    },
  };
  await runContextReport(options, io);
  return output;
}

const json = (target?: string) => ({ target, json: true });

describe("runContextReport", () => {
  it("--json by session id: the usage series and the compaction are the ones the transcript recorded", async () => {
    const { stdout, stderr } = await run(json(SESSION));
    expect(stderr).toBe("");
    const report = JSON.parse(stdout) as ContextReport;
    expect(report.transcriptPath).toBe(transcript);
    expect(report.sessionId).toBe(SESSION);
    expect(report.series.map((point) => point.contextTokens)).toEqual([100, 100, 70_000, 100]);
    expect(report.compactions).toEqual([
      {
        trigger: "auto",
        afterRequest: 3,
        atMs: Date.parse("2026-11-29T17:14:24.845Z"),
        preTokens: 70_005,
        postTokens: 2_616,
        boundary: true,
      },
    ]);
    expect(report.measuredTokens).toBe(100);
    expect(report.autoCompactTokens).toBe(67_000);
    expect(report.turns).toHaveLength(1);
    expect(
      report.categories.find((category) => category.id === "toolResults")!.parts.map((part) => part.label),
    ).toEqual(["Bash"]);
  });

  it("takes a transcript path; with none, the session it runs in or the newest of the current directory", async () => {
    for (const [target, env, cwd] of [
      [transcript, {}, root],
      [undefined, { CLAUDE_CODE_SESSION_ID: SESSION }, root],
      [undefined, {}, project],
    ] as const) {
      const { stdout } = await run(json(target), { env, cwd });
      expect(JSON.parse(stdout).transcriptPath).toBe(transcript);
    }
  });

  it("prints the table, in colour only on a terminal without NO_COLOR", async () => {
    const plain = await run({ target: SESSION, json: false });
    expect(plain.stdout).toContain("Over time: 4 requests, 1 turns, 1 compaction (auto-compact at 67,000)");
    expect(plain.stdout).not.toContain("\u001b[");
    expect((await run({ target: SESSION, json: false }, { isTTY: true })).stdout).toContain("\u001b[");
    expect((await run({ target: SESSION, json: false }, { isTTY: true, env: { NO_COLOR: "1" } })).stdout).not.toContain(
      "\u001b[",
    );
  });

  it("--html writes the page, replaces its own earlier page, refuses to overwrite anything else", async () => {
    const page = join(root, "report.html");
    expect((await run({ target: SESSION, htmlPath: "report.html", json: false })).stdout).toMatch(
      /^wrote report\.html \(\d+ KiB\)\n$/,
    );
    expect(readFileSync(page, "utf8")).toContain('<svg id="usage-chart"');
    await run({ target: SESSION, htmlPath: page, json: false });
    const notes = join(root, "notes.html");
    writeFileSync(notes, "<p>my notes</p>");
    await expect(run({ target: SESSION, htmlPath: notes, json: false })).rejects.toThrow(
      `${notes} exists and is not a carryover context report; choose another file or remove it`,
    );
    expect(readFileSync(notes, "utf8")).toBe("<p>my notes</p>");
  });

  it("says what it could not find, in one line", async () => {
    await expect(run(json("0000-missing"))).rejects.toThrow(
      `no transcript for session 0000-missing under ${join(home, ".claude", "projects")}`,
    );
    await expect(run(json("../nope.jsonl"))).rejects.toThrow(`no transcript file at ${resolve(root, "../nope.jsonl")}`);
    await expect(run(json("a b"))).rejects.toThrow('"a b" is neither a transcript path nor a session id');
    await expect(run(json(), { cwd: home })).rejects.toThrow(`no transcript for ${home} in`);
  });
});
