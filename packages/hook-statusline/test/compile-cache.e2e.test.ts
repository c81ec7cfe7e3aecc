import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { payloadText } from "@carryover/test-fixtures/payloads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NODE_VERSIONS, nodeBinDir } from "../../../scripts/nodes.mjs";

// The executable's sh prelude gives its Node a compile cache (NODE_COMPILE_CACHE) under carryover's root: what
// is in it, or how it is broken, must never change the line.

const BIN = join(import.meta.dirname, "../dist/carryover-statusline.cjs");
const LINE = "ctx 51% · 500k of 967k to auto-compact · Opus 5.5";
let home: string;
const root = () => join(home, ".claude/carryover");
const cacheDir = () => join(root(), "cache/node-compile");

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-statusline-cache-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function render(env: Record<string, string> = {}, nodeDir = dirname(process.execPath), wrap: string[] = []) {
  const [command, ...args] = [...wrap, BIN];
  return spawnSync(command as string, args, {
    input: payloadText("statusline.json"),
    env: { PATH: `${nodeDir}:/usr/bin:/bin`, HOME: home, NO_COLOR: "1", ...env },
    encoding: "utf8",
  });
}

/** Node says on stderr, when asked, whether it took the compiled code from the cache. */
function servedFromCache(nodeDir?: string): boolean {
  return /was accepted/.test(render({ NODE_DEBUG_NATIVE: "COMPILE_CACHE" }, nodeDir).stderr);
}

const expectLine = (result: ReturnType<typeof render>) =>
  expect(result).toMatchObject({ status: 0, stdout: LINE, stderr: "" });

/** The cache's entries: one dir per Node version, arch and V8 flags, one file per script. */
function entries(): string[] {
  if (!existsSync(cacheDir())) return [];
  return readdirSync(cacheDir()).flatMap((version) =>
    readdirSync(join(cacheDir(), version)).map((name) => join(cacheDir(), version, name)),
  );
}

describe("the status line's compile cache", () => {
  it("starts once carryover's root exists (Node would make it 755), and serves the renders after", () => {
    expectLine(render());
    expect(existsSync(join(root(), "cache"))).toBe(false);
    expect(statSync(root()).mode & 0o777).toBe(0o700);
    expectLine(render());
    expect(entries()).toHaveLength(1);
    expect(readdirSync(cacheDir())).toEqual([expect.stringMatching(new RegExp(`^${process.version}-`))]);
    expect(servedFromCache()).toBe(true);
    expect(statSync(root()).mode & 0o777).toBe(0o700);
  });

  it("follows CLAUDE_CONFIG_DIR", () => {
    const config = join(home, "config");
    mkdirSync(join(config, "carryover"), { recursive: true, mode: 0o700 });
    expectLine(render({ CLAUDE_CONFIG_DIR: config }));
    expect(readdirSync(join(config, "carryover/cache/node-compile"))).toHaveLength(1);
    expect(existsSync(join(home, ".claude"))).toBe(false);
  });

  it.each([
    ["flipped in its header", () => 8],
    ["flipped further in", () => 40],
    ["flipped in the middle", (size: number) => Math.floor(size / 2)],
    ["flipped at the end", (size: number) => size - 1],
  ])("renders as ever from an entry %s, and Node writes it anew", (_, offset) => {
    expectLine(render());
    expectLine(render());
    const [entry] = entries() as [string];
    const bytes = readFileSync(entry);
    const at = offset(bytes.length);
    for (let i = at; i < Math.min(at + 4, bytes.length); i++) bytes[i] = (bytes[i] as number) ^ 0xff;
    writeFileSync(entry, bytes);
    expectLine(render());
    expect(readFileSync(entry).equals(bytes)).toBe(false);
    expect(servedFromCache()).toBe(true);
  });

  it("renders as ever from an entry cut short", () => {
    expectLine(render());
    expectLine(render());
    const [entry] = entries() as [string];
    writeFileSync(entry, readFileSync(entry).subarray(0, 100));
    expectLine(render());
    expect(servedFromCache()).toBe(true);
  });

  it.each([
    ["cache", () => join(root(), "cache")],
    ["cache/node-compile", () => cacheDir()],
  ])("renders as ever when %s is a file", (_, path) => {
    mkdirSync(dirname(path()), { recursive: true, mode: 0o700 });
    writeFileSync(path(), "not a dir\n");
    expectLine(render());
    expectLine(render());
    expect(readFileSync(path(), "utf8")).toBe("not a dir\n");
  });

  const hasBwrap = spawnSync("bwrap", ["--version"]).status === 0;
  it.skipIf(!hasBwrap)("renders as ever from a read-only cache, empty or full", () => {
    mkdirSync(cacheDir(), { recursive: true, mode: 0o700 });
    const readOnly = ["bwrap", "--dev-bind", "/", "/", "--ro-bind", cacheDir(), cacheDir()];
    expectLine(render({}, undefined, readOnly));
    expect(entries()).toEqual([]);
    expectLine(render());
    const before = entries().map((entry) => readFileSync(entry));
    expectLine(render({}, undefined, readOnly));
    expect(entries().map((entry) => readFileSync(entry))).toEqual(before);
  });

  it("hands the chained command the user's NODE_COMPILE_CACHE, or none, as Claude Code gave it", () => {
    mkdirSync(root(), { recursive: true, mode: 0o700 });
    const chainCommand = { CARRYOVER_STATUSLINE_CHAIN_COMMAND: `printf '%s' "\${NODE_COMPILE_CACHE-unset}"` };
    expect(render(chainCommand).stdout).toBe(`${LINE} │ unset`);
    expect(render({ ...chainCommand, NODE_COMPILE_CACHE: join(home, "theirs") }).stdout).toBe(
      `${LINE} │ ${home}/theirs`,
    );
    expect(existsSync(join(home, "theirs"))).toBe(false);
    expect(entries()).toHaveLength(1);
  });

  it("keeps one entry per Node: each version's renders in turn find their own", () => {
    const nodeDirs = NODE_VERSIONS.map((version: string) => nodeBinDir(version));
    for (const nodeDir of nodeDirs) expect(existsSync(join(nodeDir, "node")), nodeDir).toBe(true);
    mkdirSync(root(), { recursive: true, mode: 0o700 });
    for (const nodeDir of nodeDirs) expectLine(render({}, nodeDir));
    expect(entries()).toHaveLength(NODE_VERSIONS.length);
    for (const nodeDir of nodeDirs) {
      expectLine(render({}, nodeDir));
      expect(servedFromCache(nodeDir)).toBe(true);
    }
  });
});
