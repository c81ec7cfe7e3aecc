import { existsSync } from "node:fs";
import { expect, test } from "vitest";
import { discoverHooks } from "./hooks.ts";

test("the suite finds every hook package from its package.json carryover field, with its bin.ts and its events", () => {
  const hooks = discoverHooks();
  expect(hooks.map((hook) => hook.name)).toEqual(expect.arrayContaining(["memory-guard", "pin", "post-compact", "pre-compact", "prep-reminder", "recovery", "statusline"]));
  for (const hook of hooks) {
    expect(existsSync(hook.binSource), hook.binSource).toBe(true);
    expect(hook.events.length).toBeGreaterThan(0);
  }
  expect(hooks.find((hook) => hook.name === "statusline")?.events).toEqual(["StatusLine"]);
  expect(hooks.find((hook) => hook.name === "recovery")?.events).toEqual(["SessionStart", "UserPromptSubmit"]);
});
