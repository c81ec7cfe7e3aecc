import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { autoMemoryDir, type HookJsonOutput, logPath, runHook } from "@carryover/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hook } from "./hook.ts";

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

const entry = (n: number) => `- [Note ${n}](note-${n}.md) — fact ${n}`;
const indexOf = (count: number) => `${Array.from({ length: count }, (_, i) => entry(i + 1)).join("\n")}\n`;

function sessionStart(source = "startup") {
  const transcript = join(root, "t.jsonl");
  return { session_id: SESSION, transcript_path: transcript, cwd: project, hook_event_name: "SessionStart", source };
}

function write(filePath: string) {
  const toolInput = { file_path: filePath, content: "x" };
  const event = { hook_event_name: "PostToolUse", tool_name: "Write", tool_input: toolInput, tool_response: {} };
  return { session_id: SESSION, cwd: join(project, "src"), ...event };
}

/** What the hook prints for `payload`, through the runtime as the executable runs it. */
async function invoke(payload: Record<string, unknown>, runEnv = env): Promise<HookJsonOutput | null> {
  let output = "";
  const io = {
    readInput: async () => JSON.stringify(payload),
    writeOutput: (text: string) => {
      output += text;
    },
    writeTrace: () => {},
  };
  await runHook(hook, { ...runEnv, CLAUDE_PROJECT_DIR: project }, io);
  return output ? (JSON.parse(output) as HookJsonOutput) : null;
}

describe("at SessionStart", () => {
  it("says nothing below the headroom", async () => {
    writeFileSync(memoryIndex, indexOf(159));
    expect(await invoke(sessionStart())).toBeNull();
  });

  it("tells the user from 80% of the line limit on, with advice, and gives the agent nothing", async () => {
    writeFileSync(memoryIndex, indexOf(170));
    const output = await invoke(sessionStart("resume"));
    const where = "(170 of 200 lines, 5,965 of 25,000 characters)";
    expect(output?.systemMessage).toContain(`MEMORY.md is at 85% of what Claude Code loads ${where}`);
    expect(output?.systemMessage).toContain(memoryIndex);
    expect(output?.systemMessage).toContain("Past line 200, the newest lines stop being loaded");
    expect(output?.systemMessage).toContain("topic files");
    expect(output?.hookSpecificOutput).toBeUndefined();
  });

  it("names exactly the lines Claude Code does not load, five of them at most", async () => {
    writeFileSync(memoryIndex, indexOf(208));
    const message = (await invoke(sessionStart("compact")))!.systemMessage!;
    expect(message).toContain("lines 201–208 are not loaded into any session");
    expect(message).toContain(`  201: ${entry(201)}\n  202: ${entry(202)}\n`);
    expect(message).toContain("  205: - [Note 205](note-205.md) — fact 205\n  … and 3 more");
    expect(message).not.toContain("Note 200]");
  });

  it("warns at the configured headroom", async () => {
    writeFileSync(memoryIndex, indexOf(120));
    expect(await invoke(sessionStart())).toBeNull();
    const lower = await invoke(sessionStart(), { ...env, CARRYOVER_MEMORY_GUARD_HEADROOM_PERCENT: "60" });
    expect(lower?.systemMessage).toContain("at 60%");
  });

  it("is silent without a MEMORY.md or with auto-memory off", async () => {
    expect(await invoke(sessionStart())).toBeNull();
    writeFileSync(memoryIndex, indexOf(230));
    expect(await invoke(sessionStart(), { ...env, CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1" })).toBeNull();
    mkdirSync(join(project, ".claude"));
    writeFileSync(join(project, ".claude/settings.json"), JSON.stringify({ autoMemoryEnabled: false }));
    expect(await invoke(sessionStart())).toBeNull();
  });

  it("does not read a symlinked MEMORY.md, and logs why", async () => {
    writeFileSync(join(root, "elsewhere.md"), indexOf(230));
    symlinkSync(join(root, "elsewhere.md"), memoryIndex);
    expect(await invoke(sessionStart())).toBeNull();
    expect(readFileSync(logPath(env), "utf8")).toMatch(/memory-guard: refusing .*MEMORY\.md: it is a symlink\n$/);
  });
});

describe("after a write", () => {
  it("warns the user when the write was to this project's MEMORY.md, and leaves the agent to Claude Code", async () => {
    writeFileSync(memoryIndex, indexOf(201));
    const output = await invoke(write(memoryIndex));
    expect(output?.systemMessage).toContain("line 201 is not loaded into any session");
    expect(output?.hookSpecificOutput).toBeUndefined();
  });

  it("ignores writes to any other file, even one called MEMORY.md", async () => {
    writeFileSync(memoryIndex, indexOf(230));
    expect(await invoke(write(join(project, "MEMORY.md")))).toBeNull();
    expect(await invoke(write(join(autoMemoryDir(env, project), "topic.md")))).toBeNull();
    expect(existsSync(logPath(env))).toBe(false);
  });
});
