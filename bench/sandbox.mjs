import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const roots = [];

/**
 * A throwaway HOME, TMPDIR and git project for one benchmark case, and the environment Claude Code
 * gives a hook there: nothing of the caller's (no CARRYOVER_*, CLAUDE_*, NODE_OPTIONS), so a switch
 * set in the shell running the bench cannot turn a measured path into another.
 */
export function createSandbox(label) {
  const root = mkdtempSync(join(tmpdir(), `carryover-bench-${label}-`));
  roots.push(root);
  const home = join(root, "home");
  const projectDir = join(root, "proj");
  const tmp = join(root, "tmp");
  for (const dir of [home, projectDir, tmp]) mkdirSync(dir, { recursive: true });
  const git = (...args) =>
    spawnSync("git", args, {
      cwd: projectDir,
      stdio: "ignore",
      env: {
        ...baseEnv(home, tmp),
        GIT_AUTHOR_NAME: "b",
        GIT_AUTHOR_EMAIL: "b@b",
        GIT_COMMITTER_NAME: "b",
        GIT_COMMITTER_EMAIL: "b@b",
      },
    });
  writeFileSync(join(projectDir, "README.md"), "bench project\n");
  git("init", "-q", "-b", "main");
  git("add", ".");
  git("commit", "-q", "-m", "init");
  return {
    root,
    home,
    projectDir,
    tmp,
    /** Environment of a hook: Claude Code 2.1.332 sets CLAUDE_PROJECT_DIR for hooks and the status line. */
    env: { ...baseEnv(home, tmp), CLAUDE_PROJECT_DIR: projectDir, CLAUDECODE: "1" },
  };
}

function baseEnv(home, tmp) {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: tmp, LANG: "C.UTF-8" };
}

export function removeSandboxes() {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}
