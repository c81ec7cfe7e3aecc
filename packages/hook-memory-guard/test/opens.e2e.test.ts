import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";

// The built executable under strace: a run with work to do reads each file it needs once.
const BIN = join(import.meta.dirname, "../dist/carryover-memory-guard.cjs");
const PAYLOADS = join(import.meta.dirname, "../../../test-fixtures/payloads");
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-memory-guard-opens-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** How many times the run opened each file (openat, any flags), from `strace -f -e trace=%file`. */
function opens(stdin: string, env: Record<string, string>): { stdout: string; opened: Map<string, number> } {
  const trace = join(root, "trace.txt");
  const result = spawnSync("strace", ["-f", "-qq", "-e", "trace=%file", "-o", trace, process.execPath, BIN], {
    input: stdin,
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
  });
  if (result.error) throw new Error(`strace could not run (${result.error.message}): .ci/run installs it`);
  const opened = new Map<string, number>();
  for (const [, path] of readFileSync(trace, "utf8").matchAll(/open(?:at)?\((?:AT_FDCWD, )?"([^"]+)"/g)) {
    opened.set(path!, (opened.get(path!) ?? 0) + 1);
  }
  return { stdout: result.stdout, opened };
}

it("a SessionStart that warns opens MEMORY.md, both config files and the three settings files once each", () => {
  const home = join(root, "home");
  const project = join(root, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
  const files = [
    write(join(home, ".claude/settings.json"), '{"permissions":{}}'),
    write(join(project, ".claude/settings.json"), "{}"),
    write(join(project, ".claude/settings.local.json"), '{"autoMemoryEnabled":true}'),
    write(join(home, ".claude/carryover/config.json"), '{"memory-guard":{"headroomPercent":80}}'),
    write(join(project, ".claude/carryover/config.json"), '{"levels":[60,85]}'),
    write(
      join(home, ".claude/projects", project.replace(/[^a-zA-Z0-9]/g, "-"), "memory/MEMORY.md"),
      Array.from({ length: 170 }, (_, i) => `- [Note ${i + 1}](note-${i + 1}.md) — fact\n`).join(""),
    ),
  ];
  const captured = JSON.parse(readFileSync(join(PAYLOADS, "session-start.startup.print-mode.json"), "utf8"));
  const payload = { ...captured, cwd: project };
  const { stdout, opened } = opens(JSON.stringify(payload), { HOME: home, CLAUDE_PROJECT_DIR: project });
  expect(JSON.parse(stdout).systemMessage).toMatch(/^MEMORY\.md is at 85% of what Claude Code loads/);
  const once = Object.fromEntries(files.map((file) => [file, 1]));
  expect(Object.fromEntries(files.map((file) => [file, opened.get(file) ?? 0]))).toEqual(once);
});
