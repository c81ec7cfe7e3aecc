import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectSlug } from "../../packages/core/src/index.ts";

/** A throwaway HOME, TMPDIR and project (with `.git`, so it is its own git root) for one check. */
export interface Sandbox {
  root: string;
  home: string;
  tmp: string;
  project: string;
  /** What Claude Code gives a hook: HOME, TMPDIR, CLAUDE_PROJECT_DIR, PATH; no CARRYOVER_* switch. */
  env: Record<string, string>;
  /** `~/.claude/projects/<slug>/`: where Claude Code keeps this project's transcripts. */
  transcriptsDir: string;
  /** The auto-memory dir Claude Code loads MEMORY.md from for this project. */
  memoryDir: string;
  cleanup(): void;
}

// tmpfs where there is one: an fsync there costs a fraction of one on disk (RELIABILITY.md, Rerun), and
// the hooks fsync every state write; these checks are about logic, not power loss.
function sandboxParent(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}

export function createSandbox(name: string): Sandbox {
  const root = realpathSync(mkdtempSync(join(sandboxParent(), `carryover-reliability-${name}-`)));
  const home = join(root, "home");
  const tmp = join(root, "tmp");
  const project = join(root, "proj");
  const transcriptsDir = join(home, ".claude", "projects", projectSlug(project));
  for (const dir of [join(project, ".git"), tmp, transcriptsDir]) mkdirSync(dir, { recursive: true });
  return {
    root,
    home,
    tmp,
    project,
    env: { HOME: home, TMPDIR: tmp, CLAUDE_PROJECT_DIR: project, PATH: process.env.PATH ?? "/usr/bin:/bin" },
    transcriptsDir,
    memoryDir: join(transcriptsDir, "memory"),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
