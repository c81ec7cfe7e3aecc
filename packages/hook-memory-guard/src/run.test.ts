import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { autoMemoryDir, type HookEvent, type HookInput, loadConfig } from "@carryover/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "./run.ts";

const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let root: string;
let project: string;
let env: Record<string, string>;
let memoryIndex: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-memory-guard-"));
  project = join(root, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
  env = { HOME: join(root, "home") };
  const dir = autoMemoryDir(env, project);
  mkdirSync(dir, { recursive: true });
  memoryIndex = join(dir, "MEMORY.md");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const indexOf = (count: number) => Array.from({ length: count }, (_, i) => `- [Note ${i + 1}](note-${i + 1}.md) — fact ${i + 1}`).join("\n") + "\n";

function sessionStart(source = "startup"): HookInput<"SessionStart"> {
  return { session_id: SESSION, transcript_path: join(root, "t.jsonl"), cwd: project, hook_event_name: "SessionStart", source };
}

function write(filePath: string): HookInput<"PostToolUse"> {
  return { session_id: SESSION, cwd: join(project, "src"), hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: filePath, content: "x" }, tool_response: {} };
}

function invoke<E extends "SessionStart" | "PostToolUse">(event: E, input: HookInput<E & HookEvent>, runEnv = env) {
  return run({ input, event, env: runEnv, nowMs: 0, config: loadConfig("memory-guard", runEnv, project), projectDir: project, log: () => {} } as never);
}

describe("at SessionStart", () => {
  it("says nothing below the headroom", () => {
    writeFileSync(memoryIndex, indexOf(159));
    expect(invoke("SessionStart", sessionStart())).toBeNull();
  });

  it("tells the user from 80% of the line limit on, with advice, and gives the agent nothing", () => {
    writeFileSync(memoryIndex, indexOf(170));
    const output = invoke("SessionStart", sessionStart("resume"));
    expect(output?.systemMessage).toMatch(/^MEMORY\.md is at 85% of what Claude Code loads \(170 of 200 lines, /);
    expect(output?.systemMessage).toContain(memoryIndex);
    expect(output?.systemMessage).toContain("topic files");
    expect(output?.hookSpecificOutput).toBeUndefined();
  });

  it("names exactly the lines Claude Code does not load", () => {
    writeFileSync(memoryIndex, indexOf(203));
    const message = invoke("SessionStart", sessionStart("compact"))!.systemMessage!;
    expect(message).toContain("lines 201–203 are not loaded into any session");
    expect(message).toContain("  201: - [Note 201](note-201.md) — fact 201\n  202: - [Note 202](note-202.md) — fact 202\n  203: - [Note 203](note-203.md) — fact 203\n");
    expect(message).not.toContain("Note 200]");
  });

  it("warns at the configured headroom", () => {
    writeFileSync(memoryIndex, indexOf(120));
    expect(invoke("SessionStart", sessionStart())).toBeNull();
    expect(invoke("SessionStart", sessionStart(), { ...env, CARRYOVER_MEMORY_GUARD_HEADROOM_PERCENT: "60" })?.systemMessage).toContain("at 60%");
  });

  it("is silent without a MEMORY.md or with auto-memory off", () => {
    expect(invoke("SessionStart", sessionStart())).toBeNull();
    writeFileSync(memoryIndex, indexOf(230));
    expect(invoke("SessionStart", sessionStart(), { ...env, CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1" })).toBeNull();
  });

  it("does not read a symlinked MEMORY.md", () => {
    writeFileSync(join(root, "elsewhere.md"), indexOf(230));
    symlinkSync(join(root, "elsewhere.md"), memoryIndex);
    expect(() => invoke("SessionStart", sessionStart())).toThrow(/symlink/);
  });
});

describe("after a write", () => {
  it("warns the user when the write was to this project's MEMORY.md, and leaves the agent to Claude Code", () => {
    writeFileSync(memoryIndex, indexOf(201));
    const output = invoke("PostToolUse", write(memoryIndex));
    expect(output?.systemMessage).toContain("line 201 is not loaded into any session");
    expect(output?.hookSpecificOutput).toBeUndefined();
  });

  it("ignores writes to any other file, even one called MEMORY.md", () => {
    writeFileSync(memoryIndex, indexOf(230));
    expect(invoke("PostToolUse", write(join(project, "MEMORY.md")))).toBeNull();
    expect(invoke("PostToolUse", write(join(autoMemoryDir(env, project), "topic.md")))).toBeNull();
  });
});
