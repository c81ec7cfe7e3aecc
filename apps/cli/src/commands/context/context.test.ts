import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compactStatePath, projectSlug } from "@carryover/core";
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
  expect(await kit.run("context", "a", "b")).toMatchObject({
    code: 2,
    out: "",
    err: expect.stringMatching(/^carryover: context takes at most 1; got "b" too/),
  });
  expect(await kit.run("context", "--html")).toMatchObject({ code: 2, err: "carryover: --html needs a value\n" });
  expect(await kit.run("context", "no-such-session")).toEqual({
    code: 1,
    out: "",
    err: `carryover: no transcript for session no-such-session under ${join(kit.home, ".claude", "projects")}\n`,
  });
});

it("is listed in the overview and has its own help", async () => {
  expect((await kit.run("help")).out).toMatch(/\n {2}context +what fills a session's context/);
  expect((await kit.run("context", "--help")).out).toMatch(
    /^usage: carryover context \[SESSION_ID \| TRANSCRIPT\] \[--html FILE\] \[--json\]\n\nWhat fills/,
  );
});

// A real 1.0.57 session (test-fixtures/real-transcripts), its expected values written by reading it.
const REAL = join(import.meta.dirname, "../../../../../test-fixtures/real-transcripts");
const TEMPLAR = "conneroisu__templar__chat-a46211b7";

it("context --json has a work object: what the session did since its last compaction, as the README says", async () => {
  const result = await kit.run("context", join(REAL, `${TEMPLAR}.jsonl`), "--json");
  expect(result).toMatchObject({ code: 0, err: "" });
  const { work, compactions } = JSON.parse(result.out);
  const expected = JSON.parse(readFileSync(join(REAL, `${TEMPLAR}.expected.json`), "utf8")).work;
  expect(Object.keys(work)).toEqual([
    "since",
    "lastRequest",
    "filesChanged",
    "commands",
    "errors",
    "todos",
    "tasks",
    "workers",
  ]);
  expect(work.since).toEqual({ line: 502, trigger: "unknown", preTokens: 155_671, postTokens: null });
  expect(work.lastRequest).toBe("continue");
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1);
  expect([...work.filesChanged].sort(byPath)).toEqual([...expected.filesChanged].sort(byPath));
  expect(work.filesChanged.every((file: { path: string }) => file.path.startsWith("/"))).toBe(true);
  expect(new Set(work.commands.map(JSON.stringify))).toEqual(new Set(expected.commands.map(JSON.stringify)));
  expect(
    work.errors.map(({ tool, target, resolved }: Record<string, unknown>) => ({ tool, target, resolved })),
  ).toEqual(expected.errors.map(({ tool, target, resolved }: Record<string, unknown>) => ({ tool, target, resolved })));
  for (const error of work.errors) expect(Object.keys(error)).toEqual(["tool", "target", "message", "resolved"]);
  expect(work.todos).toEqual([
    { content: "Task-85 - Split monolithic server package into focused modules", status: "completed" },
  ]);
  expect(work.tasks).toEqual([]);
  // Both Task calls came after the compaction at line 502 and returned.
  expect(work.workers).toEqual(
    JSON.parse(readFileSync(join(REAL, `${TEMPLAR}.expected.json`), "utf8")).workers.map(
      ({ kind, id, description, command, state }: Record<string, unknown>) => ({
        kind,
        id,
        description,
        command,
        state,
      }),
    ),
  );
  expect(compactions).toEqual([
    {
      trigger: "unknown",
      afterRequest: 86,
      atMs: Date.parse("2025-07-22T13:35:15.153Z"),
      preTokens: 155_671,
      postTokens: null,
      boundary: false,
    },
  ]);
});

it("context --json's work omits carryover's own writes and commands; with no compaction, all of it", async () => {
  const dir = join(kit.home, ".claude", "projects", projectSlug(kit.project));
  const id = "9e1c3a52-0000-4000-8000-000000000001";
  const state = compactStatePath({ TMPDIR: join(kit.root, "tmp") }, id);
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({ isSidechain: false, sessionId: id, cwd: kit.project, ...fields });
  const call = (toolId: string, name: string, input: Record<string, unknown>) =>
    line({
      type: "assistant",
      message: {
        id: `m-${toolId}`,
        role: "assistant",
        model: "claude-opus-5-5",
        content: [{ type: "tool_use", id: toolId, name, input }],
      },
    });
  const ok = (toolId: string) =>
    line({
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolId, content: "ok" }] },
    });
  writeFileSync(
    join(dir, `${id}.jsonl`),
    `${[
      line({ type: "user", message: { role: "user", content: "add the parser" } }),
      call("a", "Write", { file_path: join(kit.project, "parser.ts"), content: "x" }),
      ok("a"),
      line({
        type: "user",
        message: {
          role: "user",
          content: "<command-message>compact-prep</command-message>\n<command-name>/compact-prep</command-name>",
        },
      }),
      call("b", "Bash", {
        command: `"${kit.home}/.claude/skills/compact-prep/carryover-state" init --force --session ${id}`,
      }),
      ok("b"),
      call("c", "Write", { file_path: state, content: "# state" }),
      ok("c"),
      call("d", "Edit", { file_path: join(kit.project, "CHANGES_SESSION.md"), old_string: "a", new_string: "b" }),
      ok("d"),
      call("e", "Bash", { command: "echo done" }),
    ].join("\n")}\n`,
  );
  const { work } = JSON.parse((await kit.run("context", id, "--json")).out);
  expect(work).toEqual({
    since: "start",
    lastRequest: "add the parser",
    filesChanged: [{ path: join(kit.project, "parser.ts"), count: 1 }],
    commands: [{ command: "echo done", runs: 1, failures: 0 }],
    errors: [],
    todos: [],
    tasks: [],
    workers: [],
  });
});
