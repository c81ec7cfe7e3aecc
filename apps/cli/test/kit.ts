import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runCli } from "../src/cli.ts";
import { OBSERVED_CLAUDE_CODE } from "../src/doctor/claude.ts";
import type { Io } from "../src/io.ts";
import type { ManifestEntry } from "../src/release/manifest.ts";
import { sha256Of } from "../src/release/manifest.ts";

/** A temp HOME, project and release for driving commands in-process. */
export interface Kit {
  root: string;
  home: string;
  project: string;
  release: string;
  managedDir: string;
  settingsPath: string;
  /** Runs as if stdout were a terminal (colours on). */
  tty: boolean;
  /** Added to the environment of every run. */
  env: Record<string, string>;
  /** Runs `carryover <argv>`; returns exit code and what it printed. */
  run(...argv: string[]): Promise<{ code: number; out: string; err: string }>;
  writeSettings(text: string, path?: string): void;
  cleanup(): void;
}

const script = (text: string) => `#!/bin/sh\necho ${text}\n`;

function file(dir: string, path: string, data: string, mode = 0o644): string {
  const target = join(dir, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, data);
  chmodSync(target, mode);
  return sha256Of(Buffer.from(data));
}

/** A release like scripts/assemble-release.mjs writes, with tiny shell scripts as executables. */
export function writeFakeRelease(dir: string, version = "0.1.0"): ManifestEntry[] {
  const hook = (name: string, recommended: boolean, registrations: ManifestEntry["registrations"]): ManifestEntry => ({
    name,
    kind: "hook",
    package: `@carryover/hook-${name}`,
    version,
    description: `the ${name} hook`,
    recommended,
    events: [...new Set(registrations.map((registration) => registration.event))],
    registrations,
    executables: [
      {
        name: `carryover-${name}`,
        file: `bin/carryover-${name}.cjs`,
        sha256: file(dir, `bin/carryover-${name}.cjs`, script(`${name} ${version}`), 0o755),
      },
    ],
    skills: [],
  });
  const skillFiles = [
    { path: "SKILL.md", data: "---\nname: compact-prep\n---\nrun carryover-state\n", mode: 0o644 },
    { path: "carryover-state", data: script("state"), mode: 0o755 },
    { path: "package.json", data: '{"type":"commonjs"}\n', mode: 0o644 },
  ];
  const entries: ManifestEntry[] = [
    {
      name: "compact-prep",
      kind: "skill",
      package: "@carryover/skill-compact-prep",
      version,
      description: "the compact-prep skill",
      recommended: true,
      events: [],
      registrations: [],
      executables: [],
      skills: [
        {
          name: "compact-prep",
          dir: "skills/compact-prep",
          files: skillFiles.map(({ path, data, mode }) => ({
            path,
            mode,
            sha256: file(dir, `skills/compact-prep/${path}`, data, mode),
          })),
        },
      ],
    },
    hook("pin", false, [
      { event: "UserPromptSubmit", timeout: 10 },
      { event: "SessionStart", matcher: "compact", timeout: 10 },
    ]),
    hook("post-compact", true, [{ event: "PostCompact", timeout: 10 }]),
    hook("recovery", true, [
      { event: "SessionStart", matcher: "compact", timeout: 30 },
      { event: "UserPromptSubmit", timeout: 30 },
    ]),
    hook("statusline", true, [{ event: "statusLine" }]),
  ];
  writeFileSync(join(dir, "manifest.json"), `${JSON.stringify({ manifestVersion: 1, entries }, null, 2)}\n`);
  return entries;
}

export function createKit(): Kit {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "carryover-cli-")));
  const home = join(root, "home");
  const project = join(root, "proj");
  const release = join(root, "release");
  const managedDir = join(root, "managed");
  for (const dir of [join(home, ".claude"), project, release]) mkdirSync(dir, { recursive: true });
  writeFakeRelease(release);
  // The node the installer finds first on PATH, the same whichever Node runs the tests.
  const nodeBin = join(root, "node-bin");
  mkdirSync(nodeBin);
  writeFileSync(join(nodeBin, "node"), "#!/bin/sh\necho v24.11.0\n", { mode: 0o755 });
  // The Claude Code doctor looks for, at the version carryover was checked on.
  writeFileSync(join(nodeBin, "claude"), `#!/bin/sh\necho "${OBSERVED_CLAUDE_CODE} (Claude Code)"\n`, { mode: 0o755 });
  const settingsPath = join(home, ".claude", "settings.json");
  return {
    root,
    home,
    project,
    release,
    managedDir,
    settingsPath,
    env: {},
    tty: false,
    async run(...argv) {
      let out = "";
      let err = "";
      const io: Io = {
        env: { HOME: home, PATH: `${nodeBin}:${process.env.PATH}`, TMPDIR: join(root, "tmp"), ...this.env },
        cwd: project,
        nowMs: Date.parse("2026-11-29T12:00:00Z"),
        stdoutIsTty: this.tty,
        shippedReleaseDir: release,
        managedSettingsDir: managedDir,
        out: (text) => (out += text),
        err: (text) => (err += text),
      };
      const code = await runCli(argv, io, "9.9.9");
      return { code, out, err };
    },
    writeSettings(text, path = settingsPath) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Every entry under `dir` by relative path: a dir, a link and its target, or a file's mode and bytes. */
export function contents(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (at: string, prefix: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const stat = lstatSync(path);
      const key = `${prefix}${name}`;
      if (stat.isSymbolicLink()) found[key] = `link ${readlinkSync(path)}`;
      else if (stat.isDirectory()) {
        found[key] = "dir";
        walk(path, `${key}/`);
      } else found[key] = `${(stat.mode & 0o777).toString(8)} ${readFileSync(path, "utf8")}`;
    }
  };
  walk(dir, "");
  return found;
}
