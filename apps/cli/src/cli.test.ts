import { afterEach, beforeEach, expect, it } from "vitest";
import { createKit, type Kit } from "../test/kit.ts";

let kit: Kit;
beforeEach(() => {
  kit = createKit();
});
afterEach(() => kit.cleanup());

it("prints an overview without arguments, each command's help, and the version", async () => {
  const overview = await kit.run();
  expect(overview.out).toMatch(/^carryover 9\.9\.9: /);
  for (const name of ["list", "install", "uninstall", "config", "doctor", "status", "marketplace"]) expect(overview.out).toContain(`\n  ${name} `);
  expect((await kit.run("install", "--help")).out).toMatch(/^usage: carryover install \[hook…\] \[--all \| --recommended\]/);
  expect((await kit.run("help", "doctor")).out).toMatch(/^usage: carryover doctor/);
  expect((await kit.run("--version")).out).toBe("9.9.9\n");
});

it("an unknown command: the closest one, exit 2", async () => {
  expect(await kit.run("unistall")).toMatchObject({ code: 2, err: 'carryover: unknown command "unistall"; did you mean "uninstall"?\n' });
});

it("a missing or damaged release is one line saying what to do", async () => {
  expect((await kit.run("list", "--from", kit.project)).err).toBe(`carryover: no release manifest at ${kit.project}/manifest.json; build one with \`node scripts/release.mjs\` or point --from at a release dir\n`);
  const { writeFileSync } = await import("node:fs");
  writeFileSync(`${kit.project}/manifest.json`, '{"manifestVersion": 1, "entries": [{"name": "X"}]}');
  expect((await kit.run("list", "--from", kit.project)).err).toBe(`carryover: ${kit.project}/manifest.json: not a carryover manifest (entries.0.name is not what one holds); rebuild it\n`);
});
