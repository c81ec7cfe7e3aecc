import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { missingChangesets } from "./check-changesets.mjs";

const SCRIPT = join(import.meta.dirname, "check-changesets.mjs");
let repo: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

function git(...args: string[]): void {
  execFileSync("git", args, {
    cwd: repo,
    stdio: "pipe",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t.invalid",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t.invalid",
    },
  });
}

/** A hook package whose esbuild metafile bundles its entry and `coreFiles`; every core file is parsed. */
function hook(name: string, coreFiles: string[]): void {
  write(
    `packages/hook-${name}/package.json`,
    JSON.stringify({
      name: `@carryover/hook-${name}`,
      version: "0.1.0",
      bin: { [`carryover-${name}`]: `dist/carryover-${name}.cjs` },
    }),
  );
  const parsed = ["src/bin.ts", "../core/src/markers.ts", "../core/src/ledger.ts"];
  const inputs = Object.fromEntries(parsed.map((input) => [input, { bytes: 10 }]));
  const shipped = Object.fromEntries(
    parsed.map((input) => [
      input,
      { bytesInOutput: input === "src/bin.ts" || coreFiles.some((file) => input.endsWith(file)) ? 10 : 0 },
    ]),
  );
  write(
    `packages/hook-${name}/dist/carryover-${name}.cjs.meta.json`,
    JSON.stringify({ inputs, outputs: { [`dist/carryover-${name}.cjs`]: { inputs: shipped } } }),
  );
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "carryover-changesets-"));
  write(".gitignore", "dist/\n");
  write("packages/core/package.json", JSON.stringify({ name: "@carryover/core", private: true }));
  write("packages/core/src/markers.ts", "export const a = 1;\n");
  write("packages/core/src/ledger.ts", "export const b = 1;\n");
  hook("post-compact", ["markers.ts", "ledger.ts"]);
  hook("pin", ["ledger.ts"]);
  hook("statusline", []);
  write(".changeset/config.json", "{}\n");
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  git("checkout", "-q", "-b", "change");
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

const check = () => spawnSync(process.execPath, [SCRIPT, "--base", "main"], { cwd: repo, encoding: "utf8" });

it("a core change with no changeset names each package whose bundle holds the file, not one that shook it out", () => {
  write("packages/core/src/markers.ts", "export const a = 2;\n");
  git("commit", "-qam", "core change");
  const result = check();
  expect(result.status).toBe(1);
  expect(result.stderr).toBe(
    "packages/core/src/markers.ts is bundled into @carryover/hook-post-compact: " +
      "add a changeset naming it (pnpm changeset)\n",
  );
});

it("passes once a changeset names them, uncommitted edits included", () => {
  write("packages/core/src/ledger.ts", "export const b = 2;\n");
  expect(check().stderr).toBe(
    "packages/core/src/ledger.ts is bundled into @carryover/hook-pin, @carryover/hook-post-compact: " +
      "add a changeset naming them (pnpm changeset)\n",
  );
  write(
    ".changeset/quiet-ledger.md",
    "---\n\"@carryover/hook-post-compact\": patch\n'@carryover/hook-pin': patch\n---\n\nLedger keeps order.\n",
  );
  const result = check();
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("changesets: every package bundling a changed file since main has one\n");
});

it("a package's own files are its own changeset's business, not this check's", () => {
  expect(
    missingChangesets({
      changed: ["packages/hook-pin/src/bin.ts"],
      bundles: [
        { name: "@carryover/hook-pin", dir: "packages/hook-pin", inputs: new Set(["packages/hook-pin/src/bin.ts"]) },
      ],
      named: new Set(),
    }),
  ).toEqual([]);
});

it("refuses to guess without metafiles", () => {
  rmSync(join(repo, "packages/hook-pin/dist"), { recursive: true });
  const result = check();
  expect(result.status).toBe(2);
  expect(result.stderr).toBe(
    "check-changesets: packages/hook-pin: no esbuild metafile in dist/; run `pnpm build` first\n",
  );
});
