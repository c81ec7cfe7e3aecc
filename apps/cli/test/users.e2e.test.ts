// The CLI run by a user who may not write what it would change: another uid (setpriv), files and dirs owned
// by root. One line saying what and where, and nothing written.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { CLI } from "./cli-run.ts";

const UID = 4242;
const asRoot = process.getuid?.() === 0 && spawnSync("setpriv", ["--version"]).status === 0;
let root: string;
let node: string;
let home: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-users-"));
  chmodSync(root, 0o755);
  // This Node where the other user can reach it (a hard link: the same file, under a dir they may enter).
  node = join(root, "node");
  linkSync(process.execPath, node);
  home = join(root, "home");
  mkdirSync(join(home, ".claude"), { recursive: true });
  chownSync(home, UID, UID);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function asUser(...args: string[]) {
  return spawnSync("setpriv", [`--reuid=${UID}`, `--regid=${UID}`, "--clear-groups", node, CLI, ...args], {
    cwd: home,
    env: { HOME: home, PATH: `${root}:/usr/bin:/bin` },
    encoding: "utf8",
  });
}

it.skipIf(!asRoot)(
  "a settings.json the user cannot write (root's) is refused, even where a rename could replace it",
  () => {
    chownSync(join(home, ".claude"), UID, UID);
    writeFileSync(join(home, ".claude/settings.json"), '{"model": "opus"}\n', { mode: 0o644 });
    const result = asUser("install", "--recommended");
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `carryover: cannot access ${home}/.claude/settings.json: permission denied; ` +
        "check its owner and mode, or choose another --scope\n",
    );
    expect(readdirSync(join(home, ".claude"))).toEqual(["settings.json"]);
    expect(readFileSync(join(home, ".claude/settings.json"), "utf8")).toBe('{"model": "opus"}\n');
  },
);

it.skipIf(!asRoot)("a ~/.claude the user cannot write stops install before anything is written", () => {
  const result = asUser("install", "--recommended");
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(
    new RegExp(`^carryover: cannot \\w+ ${home}/\\.claude\\S*: permission denied; check its owner and mode`),
  );
  expect(readdirSync(join(home, ".claude"))).toEqual([]);
});
