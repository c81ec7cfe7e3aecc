// #17.6: ~/.claude/carryover as a symlink, the way GNU stow folds a dir the user keeps in dotfiles (a relative
// link to ~/dotfiles/claude/.claude/carryover, which holds the user's versioned config.json). A link to a dir the
// user owns and nobody else can write is the user's own choice: carryover works through it. A link to a dir others
// can write is refused where the user can see it: a log line outside the refused dir.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { afterEach, expect, test } from "vitest";
import {
  createSandbox,
  expectSuccess,
  firstMainAfterCompaction,
  mockScript,
  requestText,
  runCompact,
  runPrint,
  type Sandbox,
} from "../../../test-fixtures/e2e/index.ts";
import { recordFigures } from "../figures.ts";
import { carryoverHooks } from "./_field.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

/** The stowed layout: the real dir under ~/dotfiles, ~/.claude/carryover a relative link to it. */
function stow(s: Sandbox, mode: number): string {
  const target = join(s.home, "dotfiles", "claude", ".claude", "carryover");
  mkdirSync(target, { recursive: true });
  chmodSync(target, mode);
  writeFileSync(join(target, "config.json"), `${JSON.stringify({ recovery: { maxChars: 3000 } }, null, 2)}\n`);
  symlinkSync(relative(s.claudeDir, target), join(s.claudeDir, "carryover"));
  return target;
}

async function compactOnce(s: Sandbox): Promise<string> {
  const first = await runPrint(
    s,
    `fix the parser ${mockScript([{ tool: "Bash", input: { command: "echo work" } }, { text: "done" }])}`,
  );
  const sessionId = expectSuccess(first);
  expectSuccess(await runCompact(s, sessionId));
  expectSuccess(await runPrint(s, "continue", { resume: sessionId }));
  return requestText(firstMainAfterCompaction(s.mock.requests()));
}

/** Log files under ~/.claude that are not inside the link: where a refusal of it can be read. */
function logsOutside(s: Sandbox): string {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".log")) found.push(readFileSync(path, "utf8"));
    }
  };
  walk(s.claudeDir);
  return found.join("");
}

test("a stowed ~/.claude/carryover, private to the user: recovery delivered, state in the target", async () => {
  sandbox = await createSandbox({ settings: { hooks: carryoverHooks("pre-compact", "post-compact", "recovery") } });
  const target = stow(sandbox, 0o700);
  const after = await compactOnce(sandbox);
  expect(after).toContain("carryover recovery: this conversation was compacted");
  expect(existsSync(join(target, "sessions"))).toBe(true);
  expect(statSync(join(sandbox.claudeDir, "carryover")).isDirectory()).toBe(true);
  recordFigures("field-symlinked-root", { stowedPrivate: "followed", stowedOpen: "refused, logged" });
});

test("a link to a dir others can write: refused, nothing written there, a log line outside says so", async () => {
  sandbox = await createSandbox({ settings: { hooks: carryoverHooks("pre-compact", "post-compact", "recovery") } });
  const target = stow(sandbox, 0o777);
  const after = await compactOnce(sandbox);
  expect(after).not.toContain("carryover recovery");
  expect(readdirSync(target)).toEqual(["config.json"]);
  expect(logsOutside(sandbox)).toMatch(
    new RegExp(`refusing ${join(sandbox.claudeDir, "carryover")}: .*writable by others`),
  );
});
