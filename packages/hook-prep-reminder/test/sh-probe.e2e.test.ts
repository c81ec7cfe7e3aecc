import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { announcedMarkerName, openSession, recordReading } from "@carryover/core";
import { shDecides } from "@carryover/test-fixtures/e2e";
import { afterEach, beforeEach, expect, it } from "vitest";
import { hook } from "../src/hook.ts";

const BIN = join(import.meta.dirname, "../dist/carryover-prep-reminder.cjs");
const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let root: string;
let env: Record<string, string>;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-reminder-sh-"));
  mkdirSync(join(root, "proj"));
  env = { HOME: join(root, "home"), CLAUDE_PROJECT_DIR: join(root, "proj"), CLAUDE_CODE_SESSION_ID: SESSION };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The sh prelude's verdict and the Node probe's on the same files, at the same moment. */
function verdicts() {
  const projectDir = join(root, "proj");
  const payload = {
    session_id: SESSION,
    cwd: projectDir,
    hook_event_name: "UserPromptSubmit",
    prompt: "go on",
    transcript_path: "",
    prompt_id: "p",
    permission_mode: "default",
  };
  const sh = shDecides(BIN, "UserPromptSubmit", env);
  const node =
    hook.probe!({
      name: "prep-reminder",
      payload,
      env,
      nowMs: Date.now(),
      projectDir,
      session: openSession(env, SESSION),
    }) === null;
  return { sh, node };
}

/** The reading the statusline records, `ageMs` old and vouched for `freshMs` (none: an older statusline's). */
function reading(ageMs: number, freshMs: number | null = 300_000) {
  const atMs = Date.now() - ageMs;
  const session = openSession(env, SESSION);
  const base = {
    source: "statusline" as const,
    contextTokens: 300_000,
    modelWindowTokens: 1_000_000,
    autoCompactTokens: 967_000,
    model: "m",
    atMs,
  };
  recordReading(session, freshMs === null ? base : { ...base, freshUntilMs: atMs + freshMs });
  return session;
}

const marker = (name: string) => {
  const dir = join(root, "home/.claude/carryover/sessions", SESSION, "markers");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), "{}");
};

it.each([
  ["a fresh reading and no level marker", () => reading(10_000), true],
  [
    "a fresh reading and another marker",
    () => {
      reading(10_000);
      marker("compacted");
    },
    true,
  ],
  ["no reading (print mode)", () => {}, false],
  ["a stale reading", () => reading(400_000), false],
  ["a reading no statusline vouched for", () => reading(10_000, null), false],
  [
    "a fresh reading and level-60 raised",
    () => {
      reading(10_000);
      marker("level-60");
    },
    false,
  ],
  [
    "a fresh reading and level-60 announced already",
    () => {
      reading(10_000);
      marker(announcedMarkerName(60));
    },
    true,
  ],
  [
    "a reading that is a link",
    () => {
      const session = reading(10_000);
      const path = join(session.dir, "usage.json");
      writeFileSync(join(root, "elsewhere.json"), "{}");
      rmSync(path);
      symlinkSync(join(root, "elsewhere.json"), path);
      utimesSync(join(root, "elsewhere.json"), new Date(), new Date(Date.now() + 300_000));
    },
    false,
  ],
])("sh and Node agree on a prompt with %s", (_, setup, shDecidesIt) => {
  setup();
  const { sh, node } = verdicts();
  expect(sh).toBe(shDecidesIt);
  if (sh) expect(node).toBe(true);
});
