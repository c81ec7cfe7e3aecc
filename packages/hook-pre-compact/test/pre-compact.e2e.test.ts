import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/carryover-pre-compact.cjs");
const PAYLOADS = join(import.meta.dirname, "../../../test-fixtures/payloads");
let root: string;
let home: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-pre-compact-e2e-"));
  home = join(root, "home");
  project = join(root, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The captured manual-compaction transcript as it was when PreCompact ran: everything before its boundary. */
function capturedSession(): { payload: Record<string, unknown>; transcript: string } {
  const lines = readFileSync(join(PAYLOADS, "transcript-sample.jsonl"), "utf8").split("\n");
  const boundary = lines.findIndex((line) => line.includes('"subtype":"compact_boundary"'));
  const transcript = join(root, "session.jsonl");
  writeFileSync(
    transcript,
    `${lines.slice(0, boundary).join("\n").replaceAll("/home/user/proj", project).replaceAll("/home/user", home)}\n`,
  );
  const payload = JSON.parse(readFileSync(join(PAYLOADS, "pre-compact.manual.json"), "utf8"));
  return { payload: { ...payload, transcript_path: transcript, cwd: project }, transcript };
}

function spawnHook(stdin: string) {
  return spawnSync(BIN, [], {
    input: stdin,
    env: { PATH: process.env.PATH, HOME: home, TMPDIR: join(root, "tmp") },
    encoding: "utf8",
  });
}

it("the built executable journals the captured session and prints plain-text summary instructions", () => {
  const { payload } = capturedSession();
  const result = spawnHook(JSON.stringify(payload));
  expect(result.status).toBe(0);
  const head = result.stdout
    .split("\n")[0]!
    .replace(/\((auto|manual), [\d-]+ [\d:]+ UTC\)/, "(<trigger>, <minute> UTC)");
  expect(head).toBe(
    "carryover pre-compact: what the summary of this compaction (<trigger>, <minute> UTC) must hold; " +
      "it concerns that summary only.",
  );
  expect(result.stdout).toContain('section "Historical summaries"');

  const log = readFileSync(join(project, "CHANGES_SESSION.md"), "utf8");
  expect(log).toContain("- `src/app.ts` — Write\n- `notes.txt` — Edit\n");
  expect(log).toContain("- `ls /definitely-not-here-xyz` — failed\n");
  expect(log).toContain("- Edit `notes.txt`: String to replace not found in file. String: NOT-PRESENT → unresolved");

  const sessionDir = join(home, ".claude/carryover/sessions", payload.session_id as string);
  expect(readFileSync(join(sessionDir, "snapshot.md"), "utf8")).toContain("<!-- carryover: mechanical snapshot -->");
  expect(JSON.parse(readFileSync(join(sessionDir, "pre-compact.json"), "utf8"))).toMatchObject({
    trigger: "manual",
    promptId: payload.prompt_id,
  });

  const memoryDir = join(home, ".claude/projects", project.replace(/[^a-zA-Z0-9]/g, "-"), "memory");
  const topic = `carryover-session-${new Date().toISOString().slice(0, 10)}-292a2a51.md`;
  expect(readdirSync(memoryDir).sort()).toEqual(["MEMORY.md", topic, "carryover-sessions.md"]);
  expect(readFileSync(join(memoryDir, "MEMORY.md"), "utf8").trimEnd().split("\n")).toHaveLength(1);
});

it("never blocks: with nothing writable it still exits 0 and prints the instructions", () => {
  const { payload } = capturedSession();
  // Works as root too: a directory where the log goes, a file where HOME should be.
  mkdirSync(join(project, "CHANGES_SESSION.md"));
  writeFileSync(join(root, "not-a-dir"), "");
  const result = spawnSync(BIN, [], {
    input: JSON.stringify(payload),
    env: { PATH: process.env.PATH, HOME: join(root, "not-a-dir"), TMPDIR: join(root, "tmp") },
    encoding: "utf8",
  });
  expect(result.status).toBe(0);
  expect(result.stdout).toContain("Historical summaries");
  expect(readdirSync(join(project, "CHANGES_SESSION.md"))).toEqual([]);
});

it("fails open on garbage: exit 0, nothing printed, one log line", () => {
  const result = spawnHook("{not json");
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("");
  expect(readFileSync(join(home, ".claude/carryover/log/carryover.log"), "utf8")).toMatch(
    /pre-compact: stdin is not JSON/,
  );
});
