import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { assembleRelease } from "../../scripts/assemble-release.mjs";
import { loadRelease, sha256Of } from "./manifest.ts";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-assemble-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

function fakePackage(
  dir: string,
  pkg: Record<string, unknown>,
  entry = 'process.stdout.write("hello from the bundle\\n");\n',
): void {
  write(`packages/${dir}/package.json`, JSON.stringify(pkg));
  write(`packages/${dir}/src/bin.ts`, entry);
}

it("finds every package with a carryover field, no list to update: hooks, a status line, a skill", async () => {
  fakePackage("hook-brand-new", {
    name: "@carryover/hook-brand-new",
    version: "1.2.3",
    description: "a hook added after the CLI",
    bin: { "carryover-brand-new": "dist/carryover-brand-new.cjs" },
    scripts: { build: "carryover-build src/bin.ts dist/carryover-brand-new.cjs" },
    carryover: {
      hook: "brand-new",
      recommended: false,
      registrations: [
        { event: "Stop", timeout: 5 },
        { event: "SessionStart", matcher: "startup|resume", timeout: 7 },
        { event: "PostToolUse", matcher: "Write", if: "Write(//**/NOTES.md)", timeout: 5 },
      ],
    },
  });
  fakePackage("hook-line", {
    name: "@carryover/hook-line",
    version: "0.1.0",
    bin: { "carryover-line": "dist/carryover-line.cjs" },
    scripts: { build: "carryover-build src/bin.ts dist/carryover-line.cjs" },
    carryover: { hook: "line", recommended: true, statusLine: true, registrations: [] },
  });
  fakePackage("skill-thing", {
    name: "@carryover/skill-thing",
    version: "0.4.0",
    bin: { "thing-state": "dist/thing-state.cjs" },
    scripts: { build: "carryover-build src/bin.ts dist/thing-state.cjs" },
    carryover: {
      skill: "thing",
      recommended: true,
      files: { "SKILL.md": "skill/SKILL.md", "thing-state": "dist/thing-state.cjs" },
    },
  });
  write("packages/skill-thing/skill/SKILL.md", "---\nname: thing\n---\n");
  write("packages/core/package.json", JSON.stringify({ name: "@carryover/core", private: true }));

  const out = join(root, "release");
  await assembleRelease({ repoRoot: root, outDir: out });
  const release = loadRelease(out);
  expect(release.entries.map((entry) => [entry.name, entry.kind, entry.version, entry.events])).toEqual([
    ["brand-new", "hook", "1.2.3", ["Stop", "SessionStart", "PostToolUse"]],
    ["line", "hook", "0.1.0", ["statusLine"]],
    ["thing", "skill", "0.4.0", []],
  ]);
  const brandNew = release.entries[0]!;
  expect(brandNew.registrations).toEqual([
    { event: "Stop", timeout: 5 },
    { event: "SessionStart", matcher: "startup|resume", timeout: 7 },
    { event: "PostToolUse", matcher: "Write", if: "Write(//**/NOTES.md)", timeout: 5 },
  ]);
  const executable = join(out, brandNew.executables[0]!.file);
  expect(brandNew.executables[0]).toMatchObject({
    name: "carryover-brand-new",
    file: "bin/carryover-brand-new.cjs",
    sha256: sha256Of(readFileSync(executable)),
  });
  expect(spawnSync(executable, { encoding: "utf8" }).stdout).toBe("hello from the bundle\n");
  const skill = release.entries[2]!.skills[0]!;
  expect(skill.files.map((file) => [file.path, file.mode])).toEqual([
    ["SKILL.md", 0o644],
    ["package.json", 0o644],
    ["thing-state", 0o755],
  ]);
  expect(statSync(join(out, "skills/thing/thing-state")).mode & 0o111).not.toBe(0);
  expect(readFileSync(join(out, "skills/thing/package.json"), "utf8")).toBe('{"type":"commonjs"}\n');
});

it("refuses a registration without an explicit timeout", async () => {
  fakePackage("hook-lazy", {
    name: "@carryover/hook-lazy",
    version: "0.1.0",
    bin: { "carryover-lazy": "dist/carryover-lazy.cjs" },
    scripts: { build: "carryover-build src/bin.ts dist/carryover-lazy.cjs" },
    carryover: { hook: "lazy", registrations: [{ event: "Stop" }] },
  });
  await expect(assembleRelease({ repoRoot: root, outDir: join(root, "release") })).rejects.toThrow(
    /Stop needs an explicit "timeout" in seconds/,
  );
});
