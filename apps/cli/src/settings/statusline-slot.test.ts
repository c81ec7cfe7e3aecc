import { expect, it } from "vitest";
import { ownedStatusLine, ownedStatusLineRun, shellCommandFor } from "./statusline-slot.ts";

const OWNER = { binDir: "/home/J Doe/.claude/carryover/bin", home: "/home/J Doe" };

it("runs the statusline by its path (its #!/bin/sh prelude finds Node), quoted when needed, and knows it as its own", () => {
  expect(shellCommandFor("/h/.claude/carryover/bin/carryover-statusline")).toBe("/h/.claude/carryover/bin/carryover-statusline");
  const spaced = shellCommandFor(`/home/it's me/.claude/carryover/bin/carryover-statusline`);
  expect(spaced).toBe(`'/home/it'\\''s me/.claude/carryover/bin/carryover-statusline'`);
  expect(ownedStatusLine({ type: "command", command: shellCommandFor(`${OWNER.binDir}/carryover-statusline`) }, OWNER)).toBe("carryover-statusline");
  const pinned = `'/opt/it'\\''s node/bin/node' '/home/J Doe/.claude/carryover/bin/carryover-statusline'`;
  expect(ownedStatusLineRun({ command: pinned }, OWNER)).toEqual({ executable: "carryover-statusline", launcher: "/opt/it's node/bin/node" });
});

it("an earlier version's bare path is its own too; a node status line of another file is not", () => {
  expect(ownedStatusLine({ type: "command", command: "'/home/J Doe/.claude/carryover/bin/carryover-statusline'" }, OWNER)).toBe("carryover-statusline");
  expect(ownedStatusLine({ type: "command", command: "node ~/bin/my-status.js" }, OWNER)).toBeNull();
});
