import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { projectSlug } from "@carryover/core";
import { payloadPath } from "@carryover/test-fixtures/payloads";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createKit, type Kit } from "../../../test/kit.ts";

// The captured auto-compaction session: usage 100, 100, 70,000, a compaction, 100.
const SESSION = "403d97d7-4487-42f5-859f-548a2f3d8b6f";
let kit: Kit;
beforeEach(() => {
  kit = createKit();
  const dir = join(kit.home, ".claude", "projects", projectSlug(kit.project));
  mkdirSync(dir, { recursive: true });
  copyFileSync(payloadPath("transcript-sample.auto-compact.jsonl"), join(dir, `${SESSION}.jsonl`));
});
afterEach(() => kit.cleanup());

it("context SESSION --json prints the report of that session's transcript", async () => {
  const result = await kit.run("context", SESSION, "--json");
  expect(result).toMatchObject({ code: 0, err: "" });
  const report = JSON.parse(result.out);
  expect(report.sessionId).toBe(SESSION);
  expect(report.series.map((point: { contextTokens: number }) => point.contextTokens)).toEqual([100, 100, 70_000, 100]);
  expect(report.compactions).toHaveLength(1);
});

it("context without an argument reports the project's newest session as a table; --html writes the page", async () => {
  const table = await kit.run("context");
  expect(table.code).toBe(0);
  expect(table.out).toContain(`carryover context · session ${SESSION} · claude-opus-5-5\n`);
  expect(table.out).toMatch(/\nCategory +Tokens +Share\n/);
  const page = await kit.run("context", "--html", "context.html");
  expect(page).toMatchObject({ code: 0, out: expect.stringMatching(/^wrote context\.html/) });
  expect(readFileSync(join(kit.project, "context.html"), "utf8")).toContain('<svg id="breakdown-chart"');
});

it("bad usage exits 2, a session it cannot find exits 1, each with one line", async () => {
  expect(await kit.run("context", "a", "b")).toEqual({ code: 2, out: "", err: "carryover: one session id or transcript at most, got 2: a b\n" });
  expect(await kit.run("context", "--html")).toMatchObject({ code: 2, err: "carryover: --html needs a value\n" });
  expect(await kit.run("context", "no-such-session")).toEqual({
    code: 1,
    out: "",
    err: `carryover: no transcript for session no-such-session under ${join(kit.home, ".claude", "projects")}\n`,
  });
});

it("is listed in the overview and has its own help", async () => {
  expect((await kit.run("help")).out).toMatch(/\n {2}context +what fills a session's context/);
  expect((await kit.run("context", "--help")).out).toMatch(/^usage: carryover context \[SESSION_ID \| TRANSCRIPT\] \[--html FILE\] \[--json\]\n\nWhat fills/);
});
