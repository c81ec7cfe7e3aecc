import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleTestEntry } from "../../test/bundle.ts";
import { type Exit, runNode, type SpawnOptions } from "../../test/spawn.ts";

const PAYLOADS = join(import.meta.dirname, "../../../../test-fixtures/payloads");
const captured = (file: string) => JSON.parse(readFileSync(join(PAYLOADS, file), "utf8")) as Record<string, unknown>;
const LOG_LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z pin: /;

let hook: string;
let root: string;

beforeAll(async () => {
  hook = await bundleTestEntry("probe-hook");
  root = mkdtempSync(join(tmpdir(), "carryover-runtime-"));
});
afterAll(() => {
  rmSync(dirname(hook), { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

interface Sandbox {
  home: string;
  project: string;
  run(stdin: SpawnOptions["stdin"], env?: Record<string, string>): Promise<Exit>;
  prompt(prompt: string, env?: Record<string, string>): Promise<Exit>;
  logLines(): string[];
}

/** A fresh HOME and project per test, so concurrent tests share nothing. */
function sandbox(): Sandbox {
  const home = mkdtempSync(join(root, "home-"));
  const project = join(home, "proj");
  mkdirSync(project);
  const run = (stdin: SpawnOptions["stdin"], env: Record<string, string> = {}) =>
    runNode(hook, { env: { HOME: home, ...env }, stdin });
  return {
    home,
    project,
    run,
    prompt: (prompt, env) => run(JSON.stringify({ ...captured("user-prompt-submit.json"), cwd: project, prompt }), env),
    logLines: () => {
      const path = join(home, ".claude/carryover/log/carryover.log");
      return existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : [];
    },
  };
}

describe.concurrent("runHook in a built executable", () => {
  it("prints the JSON output as is, and writes nothing", async () => {
    const box = sandbox();
    const exit = await box.prompt("json");
    expect(exit).toMatchObject({ code: 0, stderr: "" });
    expect(exit.stdout).toBe(
      JSON.stringify({
        hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "context ✓" },
        systemMessage: "shown",
      }),
    );
    expect(existsSync(join(box.home, ".claude"))).toBe(false);
  });

  it("prints text output verbatim, after an async run too", async () => {
    const box = sandbox();
    expect((await box.prompt("text")).stdout).toBe("plain text\nsecond line");
    expect((await box.prompt("async")).stdout).toBe("after a wait");
  });

  it("prints nothing for a null result", async () => {
    const exit = await sandbox().prompt("nothing to say");
    expect(exit).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("reads a payload from a regular file as well as from a pipe", async () => {
    const box = sandbox();
    const path = join(box.home, "payload.json");
    writeFileSync(path, JSON.stringify({ ...captured("user-prompt-submit.json"), cwd: box.project, prompt: "text" }));
    const fd = openSync(path, "r");
    try {
      expect((await box.run(fd)).stdout).toBe("plain text\nsecond line");
    } finally {
      closeSync(fd);
    }
  });

  it("CARRYOVER=0 turns it off: no output, nothing written, even when run would throw", async () => {
    const box = sandbox();
    expect(await box.prompt("json", { CARRYOVER: "0" })).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(await box.prompt("throw", { CARRYOVER: "0" })).toMatchObject({ code: 0, stdout: "" });
    expect(existsSync(join(box.home, ".claude"))).toBe(false);
  });

  it("CARRYOVER_DISABLE turns off the hooks it names, and only those", async () => {
    const box = sandbox();
    for (const disable of ["pin", "hook-pin", "statusline, pin", "all"]) {
      expect((await box.prompt("text", { CARRYOVER_DISABLE: disable })).stdout).toBe("");
    }
    expect((await box.prompt("text", { CARRYOVER_DISABLE: "statusline,recovery" })).stdout).toBe(
      "plain text\nsecond line",
    );
  });

  it("a throwing run exits 0 with one log line", async () => {
    const box = sandbox();
    expect(await box.prompt("throw")).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(box.logLines()).toHaveLength(1);
    expect(box.logLines()[0]).toMatch(new RegExp(`${LOG_LINE.source}probe failure$`));
  });

  it("garbage, a non-object and empty stdin exit 0 with a log line each", async () => {
    const box = sandbox();
    for (const stdin of ["{not json", "[1,2]", "", "  \n"])
      expect(await box.run(stdin)).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(box.logLines().map((line) => line.replace(LOG_LINE, ""))).toEqual([
      'stdin is not JSON (9 chars, starts "{not json")',
      "stdin is not a JSON object",
      "empty stdin; nothing to do",
      "empty stdin; nothing to do",
    ]);
  });

  it("an unsafe session id is refused before the hook runs or writes anything", async () => {
    const box = sandbox();
    const payload = {
      ...captured("user-prompt-submit.json"),
      cwd: box.project,
      prompt: "json",
      session_id: "../../etc",
    };
    expect(await box.run(JSON.stringify(payload))).toMatchObject({ code: 0, stdout: "" });
    expect(box.logLines().map((line) => line.replace(LOG_LINE, ""))).toEqual([
      "UserPromptSubmit payload: session_id invalid",
    ]);
    expect(existsSync(join(box.home, ".claude/carryover/sessions"))).toBe(false);
  });

  it("a cwd or transcript_path longer than a path can be is refused before any path work, logged", async () => {
    const box = sandbox();
    for (const field of ["cwd", "transcript_path"]) {
      const payload = {
        ...captured("user-prompt-submit.json"),
        cwd: box.project,
        prompt: "json",
        [field]: "a".repeat(10 * 1024 * 1024),
      };
      expect(await box.run(JSON.stringify(payload))).toMatchObject({ code: 0, stdout: "" });
    }
    expect(box.logLines().map((line) => line.replace(LOG_LINE, ""))).toEqual([
      "cwd of 10485760 chars is not a path; nothing to do",
      "transcript_path of 10485760 chars is not a path; nothing to do",
    ]);
  });

  it("an event it is not registered for is logged and ignored", async () => {
    const box = sandbox();
    expect(await box.run(JSON.stringify(captured("pre-compact.auto.json")))).toMatchObject({ code: 0, stdout: "" });
    expect(box.logLines().map((line) => line.replace(LOG_LINE, ""))).toEqual(['not registered for "PreCompact"']);
  });

  it("CARRYOVER_DEBUG=1 traces to stderr, and leaves stdout as it was", async () => {
    const box = sandbox();
    const exit = await box.prompt("text", { CARRYOVER_DEBUG: "1" });
    expect(exit.stdout).toBe("plain text\nsecond line");
    expect(exit.stderr).toMatch(/^carryover pin: UserPromptSubmit done in \d+ ms\n$/);
    const failed = await box.prompt("throw", { CARRYOVER_DEBUG: "1" });
    expect(failed).toMatchObject({ code: 0, stdout: "", stderr: "carryover pin: probe failure\n" });
    expect((await box.prompt("text", { CARRYOVER_DEBUG: "1", CARRYOVER: "0" })).stderr).toBe(
      "carryover pin: disabled by CARRYOVER/CARRYOVER_DISABLE\n",
    );
  });

  it("run's log goes to the log file, and to stderr when debugging", async () => {
    const box = sandbox();
    expect(await box.prompt("log")).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect((await box.prompt("log", { CARRYOVER_DEBUG: "1" })).stderr).toMatch(/^carryover pin: note from run\n/);
    expect(box.logLines().map((line) => line.replace(LOG_LINE, ""))).toEqual(["note from run", "note from run"]);
  });

  it("gives run the config of the project dir (CLAUDE_PROJECT_DIR, else cwd) and env, logging bad values", async () => {
    const box = sandbox();
    mkdirSync(join(box.project, ".claude/carryover"), { recursive: true });
    writeFileSync(join(box.project, ".claude/carryover/config.json"), JSON.stringify({ pin: { everyTurns: 4 } }));
    const defaults = { everyTurns: 1, maxBytes: 8000 };
    expect(JSON.parse((await box.prompt("config")).stdout)).toEqual({
      hook: { ...defaults, everyTurns: 4 },
      projectDir: box.project,
    });

    const elsewhere = join(box.home, "other");
    const fromEnv = JSON.parse(
      (await box.prompt("config", { CLAUDE_PROJECT_DIR: elsewhere, CARRYOVER_PIN_MAX_BYTES: "500" })).stdout,
    );
    expect(fromEnv).toEqual({ hook: { ...defaults, maxBytes: 500 }, projectDir: elsewhere });

    const withProblem = await box.prompt("config", { CARRYOVER_PIN_EVERY_TURNS: "often" });
    expect(JSON.parse(withProblem.stdout).hook.everyTurns).toBe(4);
    expect(box.logLines().map((line) => line.replace(LOG_LINE, ""))).toEqual([
      'config: CARRYOVER_PIN_EVERY_TURNS: pin.everyTurns: expected a whole number from 1 to 1000, got "often"',
    ]);
  });

  it("a probe that finds nothing to do ends the run there; otherwise run gets what the probe found", async () => {
    const box = sandbox();
    const skipped = await box.prompt("skip", { CARRYOVER_DEBUG: "1" });
    expect(skipped).toMatchObject({ code: 0, stdout: "" });
    expect(skipped.stderr).toMatch(/^carryover pin: fast path: nothing to do \(\d+ ms\)\n$/);
    expect((await box.prompt("found")).stdout).toBe('the probe saw "found"');
    expect(box.logLines()).toEqual([]);
  });

  it("a probe that throws is logged once and run does not start", async () => {
    const box = sandbox();
    const throwing = await box.prompt("skip-throws", { CARRYOVER_DEBUG: "1" });
    expect(throwing).toMatchObject({ code: 0, stdout: "", stderr: "carryover pin: probe skip failure\n" });
    expect(box.logLines().map((line) => line.replace(LOG_LINE, ""))).toEqual(["probe skip failure"]);
  });

  it("config a probe loaded is run's config; its problems are logged even when the probe finds nothing", async () => {
    const box = sandbox();
    const badConfig = { CARRYOVER_PIN_EVERY_TURNS: "often", CARRYOVER_PIN_MAX_BYTES: "500" };
    expect(JSON.parse((await box.prompt("config-in-probe", badConfig)).stdout).hook).toMatchObject({
      everyTurns: 1,
      maxBytes: 500,
    });
    expect(await box.prompt("skip-with-config", badConfig)).toMatchObject({ code: 0, stdout: "" });
    const problem =
      'config: CARRYOVER_PIN_EVERY_TURNS: pin.everyTurns: expected a whole number from 1 to 1000, got "often"';
    expect(box.logLines().map((line) => line.replace(LOG_LINE, ""))).toEqual([problem, problem]);
  });
});
