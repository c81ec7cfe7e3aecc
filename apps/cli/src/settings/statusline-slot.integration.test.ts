import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { ownedStatusLine, ownedStatusLineRun, shellCommandFor } from "./statusline-slot.ts";

const OWNER = { binDir: "/home/J Doe/.claude/carryover/bin", home: "/home/J Doe" };

it("the status line's command sources the file in sh from any path, and is known as carryover's again", () => {
  const home = join(realpathSync(mkdtempSync(join(tmpdir(), "carryover-slot-"))), "J. O'Doe $x");
  try {
    const owner = { binDir: join(home, ".claude/carryover/bin"), home };
    mkdirSync(owner.binDir, { recursive: true });
    const file = join(owner.binDir, "carryover-statusline");
    writeFileSync(file, '#!/bin/sh\necho "ran $# $carryover_statusline"\n', { mode: 0o755 });
    const command = shellCommandFor(file);
    expect(spawnSync("/bin/sh", ["-c", command], { encoding: "utf8" }).stdout).toBe(`ran 0 ${file}\n`);
    expect(ownedStatusLineRun({ type: "command", command }, owner)).toEqual({
      executable: "carryover-statusline",
      launcher: ".",
    });
    // Naming the file without sourcing it is someone else's command.
    const other = `carryover_statusline='${file}'; echo mine`;
    expect(ownedStatusLine({ type: "command", command: other }, owner)).toBeNull();
  } finally {
    rmSync(dirname(home), { recursive: true, force: true });
  }
  const pinned = `'/opt/it'\\''s node/bin/node' '/home/J Doe/.claude/carryover/bin/carryover-statusline'`;
  expect(ownedStatusLineRun({ command: pinned }, OWNER)).toEqual({
    executable: "carryover-statusline",
    launcher: "/opt/it's node/bin/node",
  });
});

it("an earlier version's bare path is its own too; a node status line of another file is not", () => {
  expect(
    ownedStatusLine({ type: "command", command: "'/home/J Doe/.claude/carryover/bin/carryover-statusline'" }, OWNER),
  ).toBe("carryover-statusline");
  expect(ownedStatusLine({ type: "command", command: "node ~/bin/my-status.js" }, OWNER)).toBeNull();
});
