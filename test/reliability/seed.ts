import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  announcedMarkerName,
  carryoverRoot,
  compactStatePath,
  defaultStateDir,
  levelMarkerName,
  markCompacted,
  openSession,
  recordReading,
  removeMarker,
  renderState,
  writeMarker,
} from "../../packages/core/src/index.ts";
import { projectPinnedPath, userPinnedPath } from "../../packages/hook-pin/src/pinned.ts";
import { payloadPath } from "../../test-fixtures/payloads/index.ts";
import type { Sandbox } from "./sandbox.ts";

/** The sessions the fuzzer mostly uses: each has a transcript and, after `seedState`, work pending for every hook. */
export const SESSIONS = [
  "292a2a51-de5b-4500-91e5-548294a01232",
  "403d97d7-4487-42f5-859f-548a2f3d8b6f",
  "9c6cd707-b302-43ce-83ed-ec04fb1bd89d",
];

/**
 * What a lived-in machine has, so fuzzed payloads reach the hooks' full paths and not only their fast
 * paths: transcripts, pinned context, a MEMORY.md near its limit. These are the user's and Claude Code's
 * files: a hook may read them; of them only MEMORY.md may change (pre-compact indexes its entry there).
 */
export function seedFiles(sandbox: Sandbox): void {
  const samples = ["transcript-sample.jsonl", "transcript-sample.auto-compact.jsonl", "transcript-sample.jsonl"];
  for (const [index, session] of SESSIONS.entries()) {
    copyFileSync(payloadPath(samples[index]!), join(sandbox.transcriptsDir, `${session}.jsonl`));
  }
  write(projectPinnedPath(sandbox.project), "Always run the tests with `pnpm test` before saying a change works.\n");
  write(userPinnedPath(sandbox.env), "Answer in English.\n");
  const index = Array.from(
    { length: 190 },
    (_, line) => `- [Note ${line}](note-${line}.md) — a remembered fact about the project`,
  );
  write(join(sandbox.memoryDir, "MEMORY.md"), `${index.join("\n")}\n`);
  write(join(sandbox.project, "src", "app.ts"), "export const answer = 42;\n");
}

/**
 * Work for every hook: a compaction to recover from, a fresh reading past two levels (statusline and
 * prep-reminder), a filled compact-prep state. Hooks consume these, so the fuzzer re-runs it.
 */
export function seedState(sandbox: Sandbox, nowMs: number): void {
  for (const session of SESSIONS) {
    markCompacted(openSession(sandbox.env, session), { trigger: "auto", promptId: `seed-${nowMs}` }, nowMs);
    for (const level of [60, 85]) {
      removeMarker(openSession(sandbox.env, session), announcedMarkerName(level));
      writeMarker(openSession(sandbox.env, session), levelMarkerName(level), { percent: 91 }, nowMs);
    }
    recordReading(openSession(sandbox.env, session), {
      source: "statusline",
      contextTokens: 182_000,
      modelWindowTokens: 200_000,
      autoCompactTokens: 200_000,
      model: "claude-opus-5-5",
      atMs: nowMs,
    });
    const bodies = {
      "## Active Plan": "ship the parser rewrite",
      "## Session Decisions": "- keep the public API stable",
    };
    write(
      compactStatePath(sandbox.env, session),
      renderState([`Session: ${session}`, `Saved: ${new Date(nowMs).toISOString()}`], bodies),
    );
  }
}

/** Back to a freshly seeded sandbox: what the hooks wrote (carryover's own places) goes, the seeds come back. */
export function resetSandbox(sandbox: Sandbox, nowMs: number): void {
  for (const path of [
    carryoverRoot(sandbox.env),
    defaultStateDir(sandbox.env),
    join(sandbox.project, "CHANGES_SESSION.md"),
    sandbox.memoryDir,
  ]) {
    rmSync(path, { recursive: true, force: true });
  }
  seedFiles(sandbox);
  seedState(sandbox, nowMs);
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, text, { mode: 0o600 });
}
