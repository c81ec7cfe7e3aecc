import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createKit, type Kit } from "../../../test/kit.ts";

let kit: Kit;
beforeEach(() => {
  kit = createKit();
});
afterEach(() => kit.cleanup());

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

it("writes a plugin per hook, hooks.json in exec form (/bin/sh, executable, event); the skill its own", async () => {
  const out = join(kit.root, "market");
  const result = await kit.run("marketplace", out);
  expect(result.code).toBe(0);
  expect(result.out).toContain(`add it with: claude plugin marketplace add ${out}\n`);
  const marketplace = readJson(join(out, ".claude-plugin/marketplace.json"));
  expect(marketplace.name).toBe("carryover");
  expect(marketplace.plugins.map((plugin: { name: string; source: string }) => [plugin.name, plugin.source])).toEqual([
    ["compact-prep", "./plugins/compact-prep"],
    ["pin", "./plugins/pin"],
    ["post-compact", "./plugins/post-compact"],
    ["recovery", "./plugins/recovery"],
    ["statusline", "./plugins/statusline"],
  ]);
  expect(readJson(join(out, "plugins/recovery/.claude-plugin/plugin.json"))).toMatchObject({
    name: "recovery",
    version: "0.1.0",
  });
  expect(readJson(join(out, "plugins/recovery/hooks/hooks.json")).hooks).toEqual({
    SessionStart: [
      {
        matcher: "compact",
        hooks: [
          {
            type: "command",
            command: "/bin/sh",
            args: ["${CLAUDE_PLUGIN_ROOT}/bin/carryover-recovery", "SessionStart"],
            timeout: 30,
          },
        ],
      },
    ],
    UserPromptSubmit: [
      {
        hooks: [
          {
            type: "command",
            command: "/bin/sh",
            args: ["${CLAUDE_PLUGIN_ROOT}/bin/carryover-recovery", "UserPromptSubmit"],
            timeout: 30,
          },
        ],
      },
    ],
  });
  expect(statSync(join(out, "plugins/recovery/bin/carryover-recovery")).mode & 0o777).toBe(0o755);
  expect(readFileSync(join(out, "plugins/recovery/bin/package.json"), "utf8")).toBe('{"type":"commonjs"}\n');
  expect(existsSync(join(out, "plugins/compact-prep/skills/compact-prep/SKILL.md"))).toBe(true);
  expect(statSync(join(out, "plugins/compact-prep/skills/compact-prep/carryover-state")).mode & 0o777).toBe(0o755);
  expect(existsSync(join(out, "plugins/statusline/hooks/hooks.json"))).toBe(false);
  expect(readFileSync(join(out, "plugins/statusline/README.md"), "utf8")).toContain(
    "Claude Code plugins cannot set the main status line",
  );
  expect(readFileSync(join(out, "plugins/statusline/README.md"), "utf8")).toContain("carryover install statusline");
});

it("a registration's `if` reaches the plugin's hooks.json", async () => {
  const manifestPath = join(kit.release, "manifest.json");
  const manifest = readJson(manifestPath);
  const pin = manifest.entries.find((entry: { name: string }) => entry.name === "pin");
  pin.registrations.push({ event: "PostToolUse", matcher: "Write", if: "Write(//**/MEMORY.md)", timeout: 10 });
  writeFileSync(manifestPath, JSON.stringify(manifest));
  const out = join(kit.root, "market");
  expect((await kit.run("marketplace", out)).code).toBe(0);
  expect(readJson(join(out, "plugins/pin/hooks/hooks.json")).hooks.PostToolUse).toEqual([
    {
      matcher: "Write",
      hooks: [
        {
          type: "command",
          command: "/bin/sh",
          args: ["${CLAUDE_PLUGIN_ROOT}/bin/carryover-pin", "PostToolUse"],
          if: "Write(//**/MEMORY.md)",
          timeout: 10,
        },
      ],
    },
  ]);
});

it("refuses a non-empty dir that is not a marketplace, and regenerates its own", async () => {
  const out = join(kit.root, "market");
  await kit.run("marketplace", out, "--name", "mine");
  expect((await kit.run("marketplace", out, "--name", "mine")).code).toBe(0);
  writeFileSync(join(kit.project, "notes.txt"), "x");
  const refused = await kit.run("marketplace", kit.project);
  expect(refused).toMatchObject({
    code: 1,
    err: `carryover: ${kit.project} is not empty and holds no marketplace; choose an empty or new dir\n`,
  });
});
