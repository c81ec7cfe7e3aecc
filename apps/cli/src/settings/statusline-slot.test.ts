import { expect, it } from "vitest";
import { ownedStatusLine, ownedStatusLineRun, shellCommandFor } from "./statusline-slot.ts";

const OWNER = { binDir: "/home/J Doe/.claude/carryover/bin", home: "/home/J Doe" };

it("runs the statusline as `node <path>`, quoting only a word that needs it, and knows the result as its own", () => {
  expect(shellCommandFor("/h/.claude/carryover/bin/carryover-statusline")).toBe("node /h/.claude/carryover/bin/carryover-statusline");
  const spaced = shellCommandFor(`${OWNER.binDir}/carryover-statusline`);
  expect(spaced).toBe("node '/home/J Doe/.claude/carryover/bin/carryover-statusline'");
  expect(ownedStatusLine({ type: "command", command: spaced }, OWNER)).toBe("carryover-statusline");
  const pinned = shellCommandFor(`${OWNER.binDir}/carryover-statusline`, "/opt/it's node/bin/node");
  expect(pinned).toBe(`'/opt/it'\\''s node/bin/node' '/home/J Doe/.claude/carryover/bin/carryover-statusline'`);
  expect(ownedStatusLineRun({ command: pinned }, OWNER)).toEqual({ executable: "carryover-statusline", node: "/opt/it's node/bin/node" });
});

it("an earlier version's bare path is its own too; a node status line of another file is not", () => {
  expect(ownedStatusLine({ type: "command", command: "'/home/J Doe/.claude/carryover/bin/carryover-statusline'" }, OWNER)).toBe("carryover-statusline");
  expect(ownedStatusLine({ type: "command", command: "node ~/bin/my-status.js" }, OWNER)).toBeNull();
});
