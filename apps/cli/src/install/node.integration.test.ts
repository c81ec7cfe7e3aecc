import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { chooseNode } from "./node.ts";

let dir: string;
/** A `node` in its own dir that says it is `version` (null: one that does not run). */
function fakeNode(where: string, version: string | null): string {
  const binDir = join(dir, where);
  mkdirSync(binDir, { recursive: true });
  const path = join(binDir, "node");
  writeFileSync(path, version ? `#!/bin/sh\necho ${version}\n` : "#!/bin/sh\nexit 1\n", { mode: 0o755 });
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-node-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("takes the first node on PATH that is 22 or newer, as the PATH spells it", () => {
  const first = fakeNode("a", "v26.1.0");
  fakeNode("b", "v24.0.0");
  const running = fakeNode("running", "v24.2.0");
  const choice = chooseNode({ PATH: `relative/bin:${join(dir, "a")}:${join(dir, "b")}` }, running);
  expect(choice).toEqual({
    node: { path: first, version: "v26.1.0", why: "the first node on your PATH" },
    warnings: [],
  });
});

it("falls back to the Node running the installer, and says why, when PATH's is old or missing", () => {
  fakeNode("old", "v20.20.0");
  const running = fakeNode("running", "v24.2.0");
  const old = chooseNode({ PATH: join(dir, "old") }, running);
  expect(old.node).toEqual({ path: running, version: "v24.2.0", why: "the Node running this installer" });
  expect(old.warnings).toEqual([
    `the node on your PATH (${join(dir, "old/node")}) is v20.20.0, older than 22: the hooks use the linked one`,
  ]);
  const none = chooseNode({ PATH: join(dir, "empty") }, running);
  expect(none.warnings).toEqual([
    "no node on your PATH: a Claude Code started elsewhere would find none; the hooks use the linked one",
  ]);
});

it("finds none when neither will do, and says what the hooks then do", () => {
  const choice = chooseNode({ PATH: join(dir, "old") }, fakeNode("broken", null));
  expect(choice.node).toBeNull();
  expect(choice.warnings[0]).toMatch(
    /^no Node\.js 22 or newer found .*: the hooks will do nothing \(one line each in carryover's log\)/,
  );
});

it("warns that a version manager's Node may go away", () => {
  const nvm = fakeNode(".nvm/versions/node/v24.1.0/bin", "v24.1.0");
  const choice = chooseNode({ PATH: join(dir, ".nvm/versions/node/v24.1.0/bin") }, nvm);
  expect(choice.warnings).toEqual([
    `${nvm} belongs to a version manager: ` +
      "if that version goes, the hooks fall back to the node on Claude Code's PATH (carryover doctor checks it)",
  ]);
});
