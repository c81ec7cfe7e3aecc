// Hostile session ids: every built hook, for every event it is registered for, and the compact-prep
// state CLI. A session id becomes a directory and file name, so each must be refused with nothing written
// anywhere: only the hook's log line saying so.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { logPath } from "../../packages/core/src/index.ts";
import { recordFigures } from "./figures.ts";
import { discoverHooks, STATE_CLI } from "./hooks.ts";
import { capturedPayloads } from "./payloads.ts";
import { createSandbox, type Sandbox } from "./sandbox.ts";
import { seedFiles } from "./seed.ts";
import { mapLimit, runFile } from "./spawn.ts";
import { diffTrees, snapshotTree } from "./tree.ts";

const DEADLINE_MS = 10_000;
let sandbox: Sandbox;
let hostileIds: Record<string, string>;

beforeAll(() => {
  sandbox = createSandbox("session-ids");
  seedFiles(sandbox);
  hostileIds = {
    "parent dir": "../x",
    "deep parent": "../../../../../victim",
    absolute: join(sandbox.root, "abs-target"),
    "NUL byte": "a\u0000b",
    "10 KB": "x".repeat(10 * 1024),
  };
});
afterAll(() => sandbox.cleanup());

const logLines = () => {
  try {
    return readFileSync(logPath(sandbox.env), "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

// Nothing printed but the status line, nothing written but the log line saying so.
test("every hook refuses hostile session ids for every event: exit 0, nothing else printed or written", async () => {
  const runs = discoverHooks().flatMap((hook) =>
    hook.events.flatMap((event) =>
      Object.entries(hostileIds).map(([what, id]) => ({
        hook,
        event,
        what,
        payload: { ...capturedPayloads(event, sandbox)[0]!, session_id: id },
      })),
    ),
  );
  const before = snapshotTree(sandbox.root);
  const linesBefore = logLines().length;
  const results = await mapLimit(runs, 3, (run) =>
    runFile(run.hook.executable, {
      env: sandbox.env,
      cwd: sandbox.project,
      stdin: JSON.stringify(run.payload),
      deadlineMs: DEADLINE_MS,
    }),
  );
  const problems = results.flatMap((result, index) => {
    const { hook, event, what } = runs[index]!;
    const isStatusLine = event === "StatusLine";
    const wrong =
      result.code !== 0
        ? `exit ${result.code} ${result.signal ?? ""}`
        : isStatusLine
          ? result.stdout.trim() === ""
            ? "blank status line"
            : null
          : result.stdout !== ""
            ? `printed ${result.stdout.slice(0, 80)}`
            : null;
    return wrong ? [`${hook.name} ${event} (${what}): ${wrong}`] : [];
  });
  const log = logPath(sandbox.env);
  const written = diffTrees(before, snapshotTree(sandbox.root)).filter(
    (change) => change.path !== log && !log.startsWith(`${change.path}/`),
  );
  const newLines = logLines().slice(linesBefore);
  recordFigures("session-ids.hooks", {
    runs: runs.length,
    ids: Object.keys(hostileIds),
    nonZeroExits: results.filter((r) => r.code !== 0).length,
    written: written.length,
    logLines: newLines.length,
  });
  expect(problems).toEqual([]);
  expect(written).toEqual([]);
  // One refusal per hook run; the status line still shows the context and records no reading, silently.
  expect(newLines).toHaveLength(runs.filter((run) => run.event !== "StatusLine").length);
  expect(newLines.filter((line) => !/session.id|session_id/i.test(line))).toEqual([]);
}, 120_000);

test("carryover-state refuses them in --session and CLAUDE_CODE_SESSION_ID: one line, exit 1, no write", async () => {
  // argv and the environment cannot carry a NUL byte.
  const ids = Object.entries(hostileIds).filter(([what]) => what !== "NUL byte");
  const runs = ids.flatMap(([what, id]) => [
    { what: `--session ${what}`, args: ["init", "--session", id], env: sandbox.env },
    { what: `CLAUDE_CODE_SESSION_ID ${what}`, args: ["init"], env: { ...sandbox.env, CLAUDE_CODE_SESSION_ID: id } },
  ]);
  const before = snapshotTree(sandbox.root);
  const results = await mapLimit(runs, 3, (run) =>
    runFile(STATE_CLI, { env: run.env, cwd: sandbox.project, args: run.args, stdin: "", deadlineMs: DEADLINE_MS }),
  );
  const problems = results.flatMap((result, index) => {
    const lines = result.stderr.split("\n").filter(Boolean);
    const ok =
      result.code === 1 &&
      result.stdout === "" &&
      lines.length === 1 &&
      /^carryover-state: session id .* is not a safe token/.test(lines[0]!);
    return ok
      ? []
      : [`${runs[index]!.what}: exit ${result.code}, stderr ${JSON.stringify(result.stderr.slice(0, 200))}`];
  });
  const written = diffTrees(before, snapshotTree(sandbox.root));
  recordFigures("session-ids.state-cli", {
    runs: runs.length,
    refused: runs.length - problems.length,
    written: written.length,
  });
  expect(problems).toEqual([]);
  expect(written).toEqual([]);
}, 60_000);
