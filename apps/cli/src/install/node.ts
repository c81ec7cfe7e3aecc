import { spawnSync } from "node:child_process";
import { accessSync, constants, readlinkSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import type { Env } from "@carryover/core";

/** The oldest Node line the executables support (engines: >=22). */
export const MIN_NODE_MAJOR = 22;

/** The link beside the executables that their sh prelude starts first (packages/build). */
export const NODE_LINK = "node";

export interface FoundNode {
  path: string;
  version: string;
  /** Why this one, for the user. */
  why: string;
}

export interface NodeChoice {
  node: FoundNode | null;
  warnings: string[];
}

export function nodeMajor(version: string): number {
  return Number(/^v?(\d+)/.exec(version.trim())?.[1] ?? 0);
}

/** `node --version` of the file at `path`, or null when it does not run. */
export function nodeVersion(path: string): string | null {
  const run = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 10_000, env: { PATH: "" } });
  return run.status === 0 && /^v\d+\./.test(run.stdout) ? run.stdout.trim() : null;
}

/** The first `node` on `pathVariable` a shell would run, as the PATH's own spelling (a version manager's link). */
export function nodeOnPath(pathVariable: string | undefined): string | null {
  for (const dir of (pathVariable ?? "").split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, "node");
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return null;
}

// Paths a version manager removes when that version is uninstalled or switched.
const VERSION_MANAGED = /\/(?:\.nvm|\.volta|\.fnm|fnm|\.asdf|mise|\.nodenv)\//;

/**
 * The Node the hooks should run on, found as Claude Code would find one: the first `node` on the PATH it
 * inherits (this one's), else the Node running this installer (an IDE-launched Claude Code may not share
 * the shell's PATH: the link carries it there). Each must be >= MIN_NODE_MAJOR.
 */
export function chooseNode(env: Env, runningNode = process.execPath): NodeChoice {
  const warnings: string[] = [];
  const onPath = nodeOnPath(env.PATH);
  const pathVersion = onPath ? nodeVersion(onPath) : null;
  let node: FoundNode | null = null;
  if (onPath && pathVersion && nodeMajor(pathVersion) >= MIN_NODE_MAJOR) {
    node = { path: onPath, version: pathVersion, why: "the first node on your PATH" };
  } else {
    const runningVersion = nodeVersion(runningNode);
    if (runningVersion && nodeMajor(runningVersion) >= MIN_NODE_MAJOR) {
      node = { path: runningNode, version: runningVersion, why: "the Node running this installer" };
      warnings.push(
        onPath
          ? `the node on your PATH (${onPath}) is ${pathVersion ?? "not runnable"}, older than ${MIN_NODE_MAJOR}: ` +
              "the hooks use the linked one"
          : "no node on your PATH: a Claude Code started elsewhere would find none; the hooks use the linked one",
      );
    }
  }
  if (!node) {
    warnings.push(
      `no Node.js ${MIN_NODE_MAJOR} or newer found (PATH or this installer's): the hooks will do nothing ` +
        `(one line each in carryover's log) until one is installed; then run carryover install again`,
    );
  } else if (VERSION_MANAGED.test(node.path)) {
    warnings.push(
      `${node.path} belongs to a version manager: if that version goes, the hooks fall back to the node on ` +
        "Claude Code's PATH (carryover doctor checks it)",
    );
  }
  return { node, warnings };
}

/** Where the link beside the executables points, or null when there is none. */
export function linkedNode(binDir: string): string | null {
  try {
    return readlinkSync(join(binDir, NODE_LINK));
  } catch {
    return null;
  }
}
