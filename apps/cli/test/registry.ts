import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";

const REPO = join(import.meta.dirname, "../../..");

export interface Registry {
  url: string;
  /** An npm user config naming the registry, with a token npm sends to publish (verdaccio lets anyone). */
  npmrc: string;
  close(): Promise<void>;
}

/** verdaccio (scripts/registry-server.mjs) with its storage under `root`, up when this resolves. */
export async function startRegistry(root: string): Promise<Registry> {
  const server = join(import.meta.dirname, "../scripts/registry-server.mjs");
  const child = spawn(process.execPath, [server, join(root, "storage")], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    child.on("exit", (code) => reject(new Error(`verdaccio exited ${code} before listening: ${stderr.trim()}`)));
  });
  const url = `http://127.0.0.1:${port}/`;
  const npmrc = join(root, "npmrc");
  writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=carryover-e2e\n`);
  return { url, npmrc, close: () => stop(child) };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.stdin!.end();
  });
}

/**
 * npm's environment for a test user: `env` without what npm or pnpm running the tests put there (`npm_*`),
 * the registry and config from `registry`, a cache of its own.
 */
export function npmEnv(env: Record<string, string>, registry: Registry, cacheDir: string): Record<string, string> {
  const own = Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key)));
  return {
    ...own,
    npm_config_userconfig: registry.npmrc,
    npm_config_registry: registry.url,
    npm_config_cache: cacheDir,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };
}

/**
 * A copy of this checkout's sources (what git tracks or would, as they are now) in `dest`, using this checkout's
 * node_modules: a clone to version and release without touching the repository.
 */
export function copyCheckout(dest: string): void {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: REPO,
    encoding: "utf8",
  });
  for (const file of listed.split("\0").filter(Boolean)) {
    if (!existsSync(join(REPO, file))) continue;
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    cpSync(join(REPO, file), join(dest, file), { preserveTimestamps: true });
  }
  symlinkSync(join(REPO, "node_modules"), join(dest, "node_modules"));
  // A package's node_modules holds relative links: to its workspace siblings (in the copy) and into the root's.
  for (const dir of ["packages", "apps"]
    .flatMap((parent) => listDirs(join(REPO, parent), parent))
    .concat("test-fixtures")) {
    const modules = join(REPO, dir, "node_modules");
    if (existsSync(modules))
      cpSync(modules, join(dest, dir, "node_modules"), { recursive: true, verbatimSymlinks: true });
  }
}

function listDirs(path: string, prefix: string): string[] {
  if (!existsSync(path)) return [];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${prefix}/${entry.name}`);
}
