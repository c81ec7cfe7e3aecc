import { afterEach, beforeEach, expect, it } from "vitest";
import { createKit, type Kit } from "../../../test/kit.ts";

let kit: Kit;
beforeEach(() => {
  kit = createKit();
});
afterEach(() => kit.cleanup());

it("lists every hook with events, version, recommendation and the scopes that run it", async () => {
  await kit.run("install", "recovery");
  await kit.run("install", "recovery", "--scope", "local");
  await kit.run("install", "compact-prep");
  const result = await kit.run("list");
  expect(result.code).toBe(0);
  expect(result.out).toContain(
    "recovery 0.1.0 recommended · SessionStart(compact), UserPromptSubmit · installed: user, local\n" +
      "  the recovery hook\n",
  );
  expect(result.out).toContain("pin 0.1.0 · UserPromptSubmit, SessionStart(compact) · not installed\n");
  expect(result.out).toContain("compact-prep 0.1.0 recommended · skill · installed: user\n");
  expect(result.out).toContain("statusline 0.1.0 recommended · statusLine · not installed\n");
});

it("--json: the same rows, machine-readable; a malformed settings file is reported, not fatal", async () => {
  kit.writeSettings("{");
  const result = await kit.run("list", "--json");
  expect(result.code).toBe(0);
  const listing = JSON.parse(result.out);
  expect(listing.hooks.map((row: { name: string }) => row.name)).toEqual([
    "compact-prep",
    "pin",
    "post-compact",
    "recovery",
    "statusline",
  ]);
  await kit.run("install", "compact-prep");
  const installed = JSON.parse((await kit.run("list", "--json")).out);
  expect(installed.hooks[0]).toMatchObject({ name: "compact-prep", installed: ["user"], installedVersion: "0.1.0" });
  expect(listing.hooks[3]).toMatchObject({
    name: "recovery",
    version: "0.1.0",
    recommended: true,
    installed: [],
    registrations: [
      { event: "SessionStart", matcher: "compact", timeout: 30 },
      { event: "UserPromptSubmit", timeout: 30 },
    ],
  });
  expect(listing.problems).toEqual([expect.stringMatching(new RegExp(`^${kit.settingsPath}:1:2: invalid JSON`))]);
});
