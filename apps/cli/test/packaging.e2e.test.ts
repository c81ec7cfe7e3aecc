import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { payload } from "@carryover/test-fixtures/payloads";
import { afterAll, beforeAll, expect, it } from "vitest";
import { carryoverPackages } from "../scripts/assemble-release.mjs";

const run = promisify(execFile);
const REPO = join(import.meta.dirname, "../../..");

interface Pkg {
  name: string;
  private?: boolean;
  bin: Record<string, string>;
  files?: string[];
  carryover: {
    hook?: string;
    skill?: string;
    statusLine?: boolean;
    registrations?: Array<{ event: string; matcher?: string }>;
  };
}

const hookPackages = carryoverPackages(REPO)
  .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Pkg }))
  .filter(({ pkg }) => pkg.private !== true);

let root: string;
let prefix: string;
const tarballs = new Map<string, string>();

// The tarballs the release command publishes (node scripts/release.mjs pack), and a single `npm i -g` of all of
// them, offline, into a throwaway prefix.
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "carryover-packaging-"));
  prefix = join(root, "prefix");
  const packDir = join(root, "packs");
  const { stdout } = await run(process.execPath, [join(REPO, "scripts/release.mjs"), "pack", packDir]);
  for (const tarball of stdout.trim().split("\n")) {
    const manifest = spawnSync("tar", ["-xOzf", tarball, "package/package.json"], { encoding: "utf8" }).stdout;
    tarballs.set((JSON.parse(manifest) as { name: string }).name, tarball);
  }
  await run(
    "npm",
    ["install", "--global", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", ...tarballs.values()],
    { cwd: root },
  );
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A captured payload for the hook's first registration, its paths moved into `home`. */
function payloadFor(registration: { event: string; matcher?: string }, home: string): string {
  const name: Record<string, string> = {
    PostCompact: "post-compact.auto",
    PreCompact: "pre-compact.auto",
    SessionStart: registration.matcher === "compact" ? "session-start.compact" : "session-start.startup.print-mode",
    UserPromptSubmit: "user-prompt-submit",
    PostToolUse: "post-tool-use.write",
    Stop: "stop",
    statusLine: "statusline",
  };
  const file = name[registration.event];
  if (!file) throw new Error(`no captured payload mapped for ${registration.event}: add one to payloadFor`);
  return JSON.stringify(payload(file)).replaceAll("/home/user", home);
}

it.each(hookPackages.map(({ pkg }) => [pkg.name, pkg] as const))(
  "%s: the tarball holds only what it ships; npm i -g puts a working bin on PATH",
  (name, pkg) => {
    const listing = spawnSync("tar", ["-tzf", tarballs.get(name)!], { encoding: "utf8" })
      .stdout.trim()
      .split("\n")
      .map((entry) => entry.replace(/^package\//, ""));
    // npm always packs package.json, the README and the LICENSE; for a hook, `files` is its executable and README.
    const shipped = pkg.carryover.hook ? [...Object.values(pkg.bin), "README.md"] : (pkg.files ?? []);
    expect(listing.filter((entry) => entry !== "LICENSE").sort()).toEqual(
      [...new Set(["package.json", "README.md", ...shipped])].sort(),
    );

    const home = join(root, `home-${basename(name)}`);
    mkdirSync(join(home, "proj"), { recursive: true });
    const env = { PATH: `${join(prefix, "bin")}:${process.env.PATH}`, HOME: home, CARRYOVER_DEBUG: "1", NO_COLOR: "1" };
    for (const bin of Object.keys(pkg.bin)) {
      if (pkg.carryover.skill) {
        const help = spawnSync(bin, ["--help"], { env, encoding: "utf8" });
        expect(help.status).toBe(0);
        expect(help.stdout).toMatch(new RegExp(`^usage: ${bin}`));
        continue;
      }
      const registration = pkg.carryover.statusLine ? { event: "statusLine" } : pkg.carryover.registrations![0]!;
      const result = spawnSync(bin, [], {
        env,
        input: payloadFor(registration, home),
        encoding: "utf8",
        cwd: join(home, "proj"),
      });
      expect(result.status).toBe(0);
      if (registration.event === "statusLine") expect(result.stdout).toMatch(/^ctx /);
      else
        expect(result.stderr).toMatch(
          new RegExp(`^carryover ${pkg.carryover.hook}: (?:\\w+ done in \\d+ ms|fast path: nothing to do)`, "m"),
        );
    }
  },
);

// Installed with npm, `carryover` installs the recommended hooks from the release it ships.
it("carryover (the CLI): the tarball holds the CLI and the release it ships, and installs from it", () => {
  const listing = spawnSync("tar", ["-tzf", tarballs.get("carryover")!], { encoding: "utf8" })
    .stdout.trim()
    .split("\n")
    .map((entry) => entry.replace(/^package\//, ""));
  const release = listing.filter((entry) => entry.startsWith("dist/release/"));
  expect(listing.filter((entry) => entry !== "LICENSE" && !release.includes(entry)).sort()).toEqual([
    "README.md",
    "dist/carryover.cjs",
    "package.json",
  ]);
  expect(release).toContain("dist/release/manifest.json");

  const home = join(root, "home-cli");
  mkdirSync(home);
  const env = { PATH: `${join(prefix, "bin")}:${process.env.PATH}`, HOME: home };
  const listed = JSON.parse(spawnSync("carryover", ["list", "--json"], { env, encoding: "utf8" }).stdout) as {
    hooks: Array<{ name: string }>;
  };
  expect(listed.hooks.map((hook) => hook.name).sort()).toEqual(
    hookPackages.map(({ pkg }) => pkg.carryover.hook ?? pkg.carryover.skill).sort(),
  );
  const install = spawnSync("carryover", ["install", "--recommended"], { env, encoding: "utf8" });
  expect(install.status, install.stderr).toBe(0);
  const doctor = spawnSync("carryover", ["doctor"], { env, encoding: "utf8" });
  expect(doctor.status, doctor.stdout).toBe(0);
});
