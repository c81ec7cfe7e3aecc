import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  type HookJsonOutput,
  logPath,
  runHook,
  type SessionStartInput,
  type UserPromptSubmitInput,
} from "@carryover/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hook } from "./hook.ts";

const SESSION = "7618a028-19c7-4e6b-af14-1fdfaa838f89";
let root: string;
let home: string;
let project: string;
let env: Record<string, string>;

const projectPin = () => join(project, ".claude/carryover/pinned.md");
const userPin = () => join(home, ".claude/carryover/pinned.md");

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function prompt(): UserPromptSubmitInput {
  return { session_id: SESSION, cwd: project, hook_event_name: "UserPromptSubmit", prompt: "go on", prompt_id: "p-1" };
}

function sessionStart(source: string): SessionStartInput {
  return { session_id: SESSION, cwd: project, hook_event_name: "SessionStart", source };
}

/** What the hook prints for `input`, through the runtime as the executable runs it. */
async function invoke(
  input: UserPromptSubmitInput | SessionStartInput,
  extraEnv: Record<string, string> = {},
): Promise<HookJsonOutput | null> {
  let output = "";
  const io = {
    readInput: async () => JSON.stringify(input),
    writeOutput: (text: string) => (output += text),
    writeTrace: () => {},
  };
  await runHook(hook, { ...env, ...extraEnv }, io);
  return output ? (JSON.parse(output) as HookJsonOutput) : null;
}

const logged = () => (existsSync(logPath(env)) ? readFileSync(logPath(env), "utf8").split("\n").filter(Boolean) : []);

const contextOf = (output: HookJsonOutput | null) => output?.hookSpecificOutput?.additionalContext;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-pin-"));
  home = join(root, "home");
  project = join(root, "proj");
  mkdirSync(project, { recursive: true });
  env = { HOME: home };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("pin run", async () => {
  it("prints nothing and creates nothing when no pinned file exists", async () => {
    expect(await invoke(prompt())).toBeNull();
    expect(existsSync(join(home, ".claude"))).toBe(false);
  });

  it("treats an empty or whitespace-only file as nothing pinned", async () => {
    write(projectPin(), "");
    write(userPin(), "  \n\n\t\n");
    expect(await invoke(prompt())).toBeNull();
  });

  it("injects the project's and the user's pins, each framed as pinned by the user in its file", async () => {
    write(projectPin(), "Never touch the migrations folder.\n");
    write(userPin(), "Answer in British English.\n");
    const output = await invoke(prompt());
    expect(output).toEqual({
      hookSpecificOutput: {
        hookEventName: "UserPromptSubmit",
        additionalContext:
          `Pinned by the user in ${projectPin()}:\nNever touch the migrations folder.\n\n` +
          `Pinned by the user in ${userPin()}:\nAnswer in British English.`,
      },
    });
  });

  it("injects a file once when the project is the home directory (both paths are the same file)", async () => {
    write(userPin(), "Answer briefly.");
    const output = await invoke({ ...prompt(), cwd: home });
    expect(contextOf(output)).toBe(`Pinned by the user in ${userPin()}:\nAnswer briefly.`);
  });

  it("injects on every prompt by default, without writing any state", async () => {
    write(projectPin(), "Keep the public API stable.");
    for (let i = 0; i < 3; i++) expect(contextOf(await invoke(prompt()))).toContain("Keep the public API stable.");
    expect(existsSync(join(home, ".claude"))).toBe(false);
  });

  it("with everyTurns 3 injects on prompts 1, 4, 7", async () => {
    write(projectPin(), "Keep the public API stable.");
    const injected: boolean[] = [];
    for (let i = 0; i < 7; i++)
      injected.push(contextOf(await invoke(prompt(), { CARRYOVER_PIN_EVERY_TURNS: "3" })) !== undefined);
    expect(injected).toEqual([true, false, false, true, false, false, true]);
  });

  it("injects at once when the pinned text changed, whatever the count", async () => {
    write(projectPin(), "first rule");
    const every = { CARRYOVER_PIN_EVERY_TURNS: "5" };
    expect(contextOf(await invoke(prompt(), every))).toContain("first rule");
    expect(await invoke(prompt(), every)).toBeNull();
    write(projectPin(), "second rule");
    expect(contextOf(await invoke(prompt(), every))).toContain("second rule");
    expect(await invoke(prompt(), every)).toBeNull();
  });

  it("always injects after a compaction, and counts the next prompts from there", async () => {
    write(projectPin(), "Keep the public API stable.");
    const every = { CARRYOVER_PIN_EVERY_TURNS: "2" };
    expect(contextOf(await invoke(prompt(), every))).toBeDefined();
    const after = await invoke(sessionStart("compact"), every);
    expect(after?.hookSpecificOutput).toEqual({
      hookEventName: "SessionStart",
      additionalContext: `Pinned by the user in ${projectPin()}:\nKeep the public API stable.`,
    });
    expect(await invoke(prompt(), every)).toBeNull();
    expect(contextOf(await invoke(prompt(), every))).toBeDefined();
  });

  it("ignores SessionStart other than compact (a registration without the matcher)", async () => {
    write(projectPin(), "Keep the public API stable.");
    for (const source of ["startup", "resume", "clear"]) expect(await invoke(sessionStart(source))).toBeNull();
  });

  it("cuts text over maxBytes at a line break, notes it in the context and warns the user", async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `rule ${String(i).padStart(2, "0")}: ${"x".repeat(40)}`);
    write(projectPin(), `${lines.join("\n")}\n`);
    const output = await invoke(prompt(), { CARRYOVER_PIN_MAX_BYTES: "500" });
    const context = contextOf(output)!;
    expect(context).toContain("rule 00");
    expect(context).toContain("rule 09:");
    expect(context).not.toContain("rule 10");
    expect(context).toMatch(
      /\[carryover left out the last 1,500 bytes of this file: pinned text is capped at 500 bytes\.\]$/,
    );
    expect(output?.systemMessage).toBe(
      "carryover pin: pinned text is over pin.maxBytes (500 bytes), so only part of it reaches the model: " +
        `${projectPin()} (2,000 bytes, 1,500 bytes left out). Shorten the file or raise pin.maxBytes.`,
    );
  });

  it("shares the byte budget: the user's pin gets what the project's left", async () => {
    write(projectPin(), "p".repeat(90));
    write(userPin(), "u".repeat(50));
    const output = await invoke(prompt(), { CARRYOVER_PIN_MAX_BYTES: "100" });
    expect(contextOf(output)).toContain(
      `${"p".repeat(90)}\n\nPinned by the user in ${userPin()}:\n${"u".repeat(10)}\n` +
        "[carryover left out the last 40 bytes",
    );
    expect(output?.systemMessage).toContain(`${userPin()} (50 bytes, 40 bytes left out)`);
  });

  it("never splits a multi-byte character at the cut", async () => {
    write(projectPin(), "é".repeat(100));
    const context = contextOf(await invoke(prompt(), { CARRYOVER_PIN_MAX_BYTES: "101" }))!;
    expect(context).toContain(`${"é".repeat(50)}\n[carryover left out the last 100 bytes`);
    expect(context).not.toContain("\uFFFD");
  });

  it("refuses a symlinked pin (it could point at any file), warns, and still injects the other one", async () => {
    write(join(root, "secret.txt"), "API_KEY=hunter2");
    mkdirSync(dirname(projectPin()), { recursive: true });
    symlinkSync(join(root, "secret.txt"), projectPin());
    write(userPin(), "Answer briefly.");
    const output = await invoke(prompt());
    expect(contextOf(output)).toBe(`Pinned by the user in ${userPin()}:\nAnswer briefly.`);
    expect(JSON.stringify(output)).not.toContain("hunter2");
    expect(output?.systemMessage).toBe(`carryover pin: refusing ${projectPin()}: it is a symlink`);
    expect(logged().map((line) => line.replace(/^\S+ /, ""))).toEqual([
      `pin: refusing ${projectPin()}: it is a symlink`,
    ]);
  });
});
