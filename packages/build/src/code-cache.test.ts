import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { codeCacheDir } from "../../core/src/claude/paths.ts";
import { buildExecutable } from "./index.mjs";

const NAME = "probe";
let dir: string;
let home: string;
let executable: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "carryover-build-cache-"));
  const files: Record<string, string> = {
    "lazy.ts": `export const lazyWork = (): string => "deferred · work";\n`,
    "entry.ts": [
      `const mode = process.argv[2];`,
      `if (mode === "fast") console.log("fast · path", typeof __carryoverCode);`,
      `else if (mode === "lazy") import("./lazy.ts").then((m) => console.log(m.lazyWork()));`,
      `else if (mode === "throw") throw new Error("boom");`,
    ].join("\n"),
    "dynamic.ts": `export const load = () => import("node:os");\n`,
  };
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  executable = (await buildExecutable({ entry: join(dir, "entry.ts"), outfile: join(dir, `out/${NAME}.cjs`), codeCache: true })).outfile;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeEach(() => {
  home = mkdtempSync(join(dir, "home-"));
});

// core owns the path; the loader spells it out (it runs before any bundled code): this holds them together.
const cacheDir = () => codeCacheDir({ HOME: home });
const caches = () => (existsSync(cacheDir()) ? readdirSync(cacheDir()) : []);
const run = (args: string[], env: Record<string, string> = { HOME: home }) => spawnSync(process.execPath, [executable, ...args], { encoding: "utf8", env });

describe("buildExecutable with codeCache", () => {
  it("runs the code, deferred part included, from the text the loader compiles", () => {
    expect(run(["fast"]).stdout).toBe("fast · path undefined\n");
    expect(run(["lazy"]).stdout).toBe("deferred · work\n");
    expect(readFileSync(executable, "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(statSync(executable).mode & 0o777).toBe(0o755);
  });

  it("writes the cache after the first run, private, named for this build and this Node, and reuses it", () => {
    run(["fast"]);
    const [file] = caches();
    expect(file).toMatch(new RegExp(`^${NAME}-[0-9a-f]{16}-${process.version}-${process.arch}\\.v8$`));
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    const path = join(cacheDir(), file!);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const written = statSync(path).mtimeMs;
    expect(run(["fast"]).stdout).toBe("fast · path undefined\n");
    expect(statSync(path).mtimeMs).toBe(written);
    expect(caches()).toEqual([file]);
  });

  it("replaces a cache V8 refuses (garbage) and another build's cache", () => {
    run(["fast"]);
    const [file] = caches();
    const path = join(cacheDir(), file!);
    writeFileSync(path, "not a code cache");
    writeFileSync(join(cacheDir(), `${NAME}-0000000000000000-${process.version}-${process.arch}.v8`), "an older build's");
    expect(run(["fast"]).stdout).toBe("fast · path undefined\n");
    expect(readFileSync(path, "utf8")).not.toBe("not a code cache");
    expect(caches()).toEqual([file]);
  });

  it("reads a FIFO planted at the cache as empty instead of waiting for a writer, and still runs", () => {
    run(["fast"]);
    const [file] = caches();
    const path = join(cacheDir(), file!);
    rmSync(path);
    execFileSync("mkfifo", [path]);
    const result = spawnSync(process.execPath, [executable, "fast"], { encoding: "utf8", env: { HOME: home }, timeout: 20_000 });
    expect(result).toMatchObject({ status: 0, stdout: "fast · path undefined\n" });
  });

  it("does not follow a symlink planted at the cache: it is replaced, its target untouched", () => {
    run(["fast"]);
    const [file] = caches();
    const path = join(cacheDir(), file!);
    const victim = join(home, "victim");
    writeFileSync(victim, "keep me");
    rmSync(path);
    symlinkSync(victim, path);
    expect(run(["fast"]).stdout).toBe("fast · path undefined\n");
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    expect(statSync(path).isFile()).toBe(true);
  });

  it("keeps no cache under CARRYOVER_CODE_CACHE=0 or without a home, and still runs", () => {
    expect(run(["fast"], { HOME: home, CARRYOVER_CODE_CACHE: "0" }).stdout).toBe("fast · path undefined\n");
    expect(run(["fast"], {}).stdout).toBe("fast · path undefined\n");
    expect(caches()).toEqual([]);
  });

  it("keeps it under CLAUDE_CONFIG_DIR when set", () => {
    const config = join(home, "config");
    mkdirSync(config);
    run(["fast"], { HOME: home, CLAUDE_CONFIG_DIR: config });
    expect(readdirSync(codeCacheDir({ HOME: home, CLAUDE_CONFIG_DIR: config }))).toHaveLength(1);
    expect(caches()).toEqual([]);
  });

  it("names the executable in a stack trace, and exits as the code does", () => {
    const result = run(["throw"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(executable);
    expect(result.stderr).toContain("boom");
  });

  it("refuses to build code that keeps a dynamic import(), which vm.Script cannot run", async () => {
    await expect(buildExecutable({ entry: join(dir, "dynamic.ts"), outfile: join(dir, "out/dynamic.cjs"), codeCache: true })).rejects.toThrow(/dynamic import\(\)/);
  });
});
