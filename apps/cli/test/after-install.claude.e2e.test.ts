// What install says happens next, held against the real Claude Code 2.1.332: a running session picks the
// hooks and the skill up by itself, and the commands it gives to turn off what carryover writes work.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createSandbox, hasTmux, type Sandbox, startTui } from "@carryover/test-fixtures/e2e";
import { afterEach, expect, it } from "vitest";
import { carryover } from "./cli-run.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("says what runs when and what it writes; the off switches it names work", async () => {
  sandbox = await createSandbox();
  const out = carryover(sandbox, ["install", "--all", "--statusline", "skip"]);
  expect(out).toContain("next: Claude Code picks this up by itself, a running session too");
  expect(out).toContain("/compact-prep: run it before a compaction you expect");
  const offs = [...out.matchAll(/\(off: carryover (config [^)]+)\)/g)].map((match) => match[1]!);
  expect(offs).toEqual(['config changesFile ""', "config pre-compact memoryEntry false"]);
  for (const off of offs) {
    const words = off.split(" ").map((word) => (word === '""' ? "" : word));
    carryover(sandbox, words);
  }
  expect(carryover(sandbox, ["config", "changesFile"])).toBe("\n");
  expect(carryover(sandbox, ["config", "pre-compact", "memoryEntry"])).toBe("false\n");
});

it.skipIf(!hasTmux())(
  "a running Claude Code runs hooks installed mid-session from a next prompt, and lists the skill",
  async () => {
    sandbox = await createSandbox();
    const debug = join(sandbox.root, "claude-debug.txt");
    const tui = await startTui(sandbox, { args: ["--debug-file", debug] });
    await tui.submit("a prompt before the install");
    carryover(sandbox, ["install", "--recommended", "--statusline", "skip"]);
    const ran = () =>
      (existsSync(debug) ? readFileSync(debug, "utf8") : "")
        .split("\n")
        .filter((line) => /UserPromptSubmit.*carryover-recovery.*status 0/.test(line)).length;
    let skillListed = false;
    for (let prompt = 0; prompt < 5 && !(ran() > 0 && skillListed); prompt++) {
      await pause(2_000);
      await tui.submit(`prompt ${prompt} after the install`);
      skillListed ||= JSON.stringify(sandbox.mock.mainRequests().at(-1)).includes("compact-prep");
    }
    await tui.stop();
    expect(ran(), "carryover's UserPromptSubmit hooks in the same session").toBeGreaterThan(0);
    expect(skillListed, "/compact-prep in the skill listing of the same session").toBe(true);
  },
);
