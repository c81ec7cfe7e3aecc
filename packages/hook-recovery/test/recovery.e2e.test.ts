import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultStateDir } from "@carryover/core";
import { payload } from "@carryover/test-fixtures/payloads";
import { afterEach, beforeEach, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/carryover-recovery.cjs");
const POST_COMPACT = join(import.meta.dirname, "../../hook-post-compact/dist/carryover-post-compact.cjs");
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-recovery-e2e-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function spawn(bin: string, stdin: string) {
  return spawnSync(bin, [], {
    input: stdin,
    env: { PATH: process.env.PATH, HOME: home, TMPDIR: home },
    encoding: "utf8",
  });
}

// The captured SessionStart(compact) payload, then PostCompact, then the next captured prompt.
it("SessionStart(compact) gets the recovery context; the next prompt gets nothing", () => {
  const start = payload("session-start.compact");
  const result = spawn(BIN, JSON.stringify(start));
  expect(result.status).toBe(0);
  const output = JSON.parse(result.stdout);
  expect(output.hookSpecificOutput.hookEventName).toBe("SessionStart");
  expect(output.hookSpecificOutput.additionalContext).toMatch(
    /^carryover recovery: this conversation was compacted at /,
  );
  expect(output.hookSpecificOutput.additionalContext).toContain(
    `/compact-prep writes it to ${join(defaultStateDir({ TMPDIR: home }), `${start.session_id}.md`)}`,
  );

  const postCompact = { ...payload("post-compact.manual"), session_id: start.session_id, prompt_id: start.prompt_id };
  expect(spawn(POST_COMPACT, JSON.stringify(postCompact)).status).toBe(0);
  const prompt = { ...payload("user-prompt-submit"), session_id: start.session_id };
  // The captured transcript_path does not exist here: the delivery SessionStart recorded stands.
  expect(spawn(BIN, JSON.stringify(prompt))).toMatchObject({ status: 0, stdout: "" });
  expect(existsSync(join(home, ".claude/carryover/sessions", start.session_id, "markers/compacted.json"))).toBe(false);
});

it("a prompt with no compaction pending, and SessionStart(startup), print nothing and create nothing", () => {
  expect(spawn(BIN, JSON.stringify(payload("user-prompt-submit")))).toMatchObject({ status: 0, stdout: "" });
  expect(spawn(BIN, JSON.stringify(payload("session-start.startup.print-mode")))).toMatchObject({
    status: 0,
    stdout: "",
  });
  expect(existsSync(join(home, ".claude"))).toBe(false);
});

it("fails open on garbage: exit 0, nothing printed, one log line", () => {
  const result = spawn(BIN, "{not json");
  expect(result).toMatchObject({ status: 0, stdout: "" });
  expect(readFileSync(join(home, ".claude/carryover/log/carryover.log"), "utf8")).toMatch(
    /recovery: stdin is not JSON/,
  );
});
