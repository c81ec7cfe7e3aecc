import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { HookIO, StatusLineContext, StatusLineDefinition } from "./definition.ts";
import { runStatusLine } from "./statusline.ts";

let home: string;
let written: string[];
let seen: StatusLineContext<typeof keys>[];

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-statusline-runtime-"));
  written = [];
  seen = [];
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function io(stdin: string | Error): HookIO {
  return {
    readInput: () => (stdin instanceof Error ? Promise.reject(stdin) : Promise.resolve(stdin)),
    writeOutput: (text) => written.push(text),
    writeTrace: () => {},
  };
}

const keys = {
  chainTimeoutMs: { kind: "number", default: 1000, min: 50, max: 10_000, description: "how long the chain may take" },
} as const;

function command(render: (context: StatusLineContext<typeof keys>) => string): StatusLineDefinition<typeof keys> {
  return {
    name: "statusline",
    keys,
    render: (context) => {
      seen.push(context);
      return render(context);
    },
    fallbackLine: "fallback",
  };
}

const logText = () => readFileSync(join(home, ".claude/carryover/log/carryover.log"), "utf8");

it("hands render the raw stdin, the parsed payload, the config and the project dir, and prints its line", async () => {
  const stdin = '{"session_id":"s1",  "workspace":{"project_dir":"/work/p"}}';
  await runStatusLine(
    command(() => "ctx 1%"),
    { HOME: home, CARRYOVER_STATUSLINE_CHAIN_TIMEOUT_MS: "250" },
    io(stdin),
  );
  expect(written).toEqual(["ctx 1%"]);
  expect(seen[0]).toMatchObject({
    stdinText: stdin,
    payload: { session_id: "s1" },
    projectDir: "/work/p",
    enabled: true,
  });
  expect(seen[0]!.session?.dir).toBe(join(home, ".claude/carryover/sessions/s1"));
  expect(seen[0]!.config.hook.chainTimeoutMs).toBe(250);
});

it("prefers CLAUDE_PROJECT_DIR for the project dir", async () => {
  await runStatusLine(
    command(() => ""),
    { HOME: home, CLAUDE_PROJECT_DIR: "/env/p" },
    io('{"cwd":"/cwd/p"}'),
  );
  expect(seen[0]!.projectDir).toBe("/env/p");
});

it("still renders when stdin is not a JSON object, with a null payload, and logs it", async () => {
  await runStatusLine(
    command((context) => (context.payload === null ? "no payload" : "payload")),
    { HOME: home },
    io("[1,2]"),
  );
  expect(written).toEqual(["no payload"]);
  expect(logText()).toMatch(/statusline: stdin is not a JSON object/);
});

it("still renders when stdin cannot be read", async () => {
  await runStatusLine(
    command((context) => `stdin ${JSON.stringify(context.stdinText)}`),
    { HOME: home },
    io(new Error("stdin not closed")),
  );
  expect(written).toEqual(['stdin ""']);
  expect(logText()).toMatch(/statusline: stdin: stdin not closed/);
});

it("prints the fallback line when render throws, and logs the error", async () => {
  await runStatusLine(
    command(() => {
      throw new Error("boom");
    }),
    { HOME: home },
    io("{}"),
  );
  expect(written).toEqual(["fallback"]);
  expect(logText()).toMatch(/statusline: boom/);
});

it("tells render when carryover is switched off, instead of skipping it", async () => {
  await runStatusLine(
    command(() => "theirs only"),
    { HOME: home, CARRYOVER_DISABLE: "statusline" },
    io("{}"),
  );
  await runStatusLine(
    command(() => "theirs only"),
    { HOME: home, CARRYOVER: "0" },
    io("{}"),
  );
  expect(seen.map((context) => context.enabled)).toEqual([false, false]);
  expect(written).toEqual(["theirs only", "theirs only"]);
});

it("prints nothing for an empty line", async () => {
  await runStatusLine(
    command(() => ""),
    { HOME: home },
    io("{}"),
  );
  expect(written).toEqual([]);
});
