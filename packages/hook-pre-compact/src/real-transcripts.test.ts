import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, openSession } from "@carryover/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keys } from "./config.ts";
import { oneLine } from "./describe.ts";
import { hook } from "./hook.ts";

// Expected values written by reading each transcript (test-fixtures/real-transcripts/README.md).
const DIR = join(import.meta.dirname, "../../../test-fixtures/real-transcripts");
const cases = readdirSync(DIR)
  .filter((name) => name.endsWith(".expected.json"))
  .map((name) => JSON.parse(readFileSync(join(DIR, name), "utf8")));

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-pre-compact-real-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(cases.map((expected) => [expected.transcript as string, expected] as const))(
  "on %s",
  (name, expected) => {
    let steering: string;
    let changes: string;
    beforeAll(async () => {
      const project = join(root, name);
      const home = join(project, "home");
      mkdirSync(join(project, ".git"), { recursive: true });
      mkdirSync(home, { recursive: true });
      const env = { HOME: home, TMPDIR: join(project, "tmp") };
      const input = {
        session_id: "403d97d7-4487-42f5-859f-548a2f3d8b6f",
        transcript_path: join(DIR, name),
        cwd: project,
        hook_event_name: "PreCompact" as const,
        trigger: "auto" as const,
        custom_instructions: null,
        prompt_id: "p-1",
      };
      const config = loadConfig("pre-compact", keys, env, project);
      const session = openSession(env, input.session_id);
      const context = {
        input,
        event: "PreCompact" as const,
        env,
        nowMs: Date.UTC(2026, 10, 29),
        config,
        projectDir: project,
        session,
        log: () => {},
      };
      steering = (await hook.run(context, undefined)) as string;
      changes = readFileSync(join(project, "CHANGES_SESSION.md"), "utf8");
    });

    it("the changes log names the last request and what happened since the last compaction", () => {
      const { filesChanged, commands, errors } = expected.work;
      if (expected.lastRequest) expect(changes).toContain(`Last request: “${oneLine(expected.lastRequest.text, 300)}”`);
      if (filesChanged.length > 0) expect(changes).toContain(`### Files modified (${filesChanged.length})`);
      if (commands.length > 0) expect(changes).toContain(`### Commands run (${commands.length})`);
      const fixed = errors.filter((error: { resolved: boolean }) => error.resolved).length;
      if (errors.length > 0) expect(changes).toContain(`### Errors (${errors.length}, ${fixed} fixed)`);
      else expect(changes).not.toContain("### Errors");
    });

    it("the summarizer is told of every earlier compaction the transcript holds, never that there was none", () => {
      if (expected.compactions.length > 0) {
        expect(steering).not.toContain("none yet");
        const count = expected.compactions.length;
        const earlier = count === 1 ? "the earlier compaction" : `the ${count} earlier compactions`;
        expect(steering).toContain(`what ${earlier} of this session recorded`);
        expect(steering).toContain("<earlier-summaries>");
      } else {
        expect(steering).toContain('holding "none yet": the session\'s transcript has no earlier compaction.');
      }
    });
  },
);
