import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { findGitRoot } from "./git-root.ts";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-git-root-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it("finds the nearest ancestor holding a .git directory", () => {
  mkdirSync(join(root, "repo/.git"), { recursive: true });
  mkdirSync(join(root, "repo/a/b"), { recursive: true });
  expect(findGitRoot(join(root, "repo/a/b"))).toBe(join(root, "repo"));
  expect(findGitRoot(join(root, "repo"))).toBe(join(root, "repo"));
});

it("finds a worktree, whose .git is a file, before the main repo above it", () => {
  mkdirSync(join(root, "repo/.git"), { recursive: true });
  mkdirSync(join(root, "repo/worktrees/feature/src"), { recursive: true });
  writeFileSync(join(root, "repo/worktrees/feature/.git"), "gitdir: ../../.git/worktrees/feature\n");
  expect(findGitRoot(join(root, "repo/worktrees/feature/src"))).toBe(join(root, "repo/worktrees/feature"));
});

it("resolves a relative path and returns null outside any repository", () => {
  mkdirSync(join(root, "plain/x"), { recursive: true });
  expect(findGitRoot(join(root, "plain/x/../x"))).toBeNull();
});
