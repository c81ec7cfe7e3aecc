import { afterEach, beforeEach, expect, it } from "vitest";
import { createKit, type Kit } from "../test/kit.ts";
import { COMMANDS } from "./cli.ts";
import { usageSpec } from "./command.ts";

let kit: Kit;
beforeEach(() => {
  kit = createKit();
});
afterEach(() => kit.cleanup());

it("prints an overview without arguments, each command's help, and the version", async () => {
  const overview = await kit.run();
  expect(overview.out).toMatch(/^carryover 9\.9\.9: /);
  for (const name of ["list", "install", "uninstall", "config", "doctor", "status", "marketplace"])
    expect(overview.out).toContain(`\n  ${name} `);
  expect((await kit.run("install", "--help")).out).toMatch(
    /^usage: carryover install \[hook…\] \[--all \| --recommended\]/,
  );
  expect((await kit.run("help", "doctor")).out).toMatch(/^usage: carryover doctor/);
  expect((await kit.run("--version")).out).toBe("9.9.9\n");
});

it("an unknown command: the closest one, exit 2", async () => {
  expect(await kit.run("unistall")).toMatchObject({
    code: 2,
    err: 'carryover: unknown command "unistall"; did you mean "uninstall"?\n',
  });
});

it("a missing or damaged release is one line saying what to do", async () => {
  expect((await kit.run("list", "--from", kit.project)).err).toBe(
    `carryover: no release manifest at ${kit.project}/manifest.json; ` +
      "make one with `node scripts/release.mjs dir` or point --from at a release dir\n",
  );
  const { writeFileSync } = await import("node:fs");
  writeFileSync(`${kit.project}/manifest.json`, '{"manifestVersion": 1, "entries": [{"name": "X"}]}');
  expect((await kit.run("list", "--from", kit.project)).err).toBe(
    `carryover: ${kit.project}/manifest.json: ` +
      "not a carryover manifest (entries.0.name is not what one holds); rebuild it\n",
  );
});

it("install --help lists the hooks and skills of the release", async () => {
  const help = (await kit.run("install", "--help")).out;
  expect(help).toContain("  post-compact  * PostCompact\n");
  expect(help).toContain("  pin             UserPromptSubmit, SessionStart(compact)\n");
  expect(help).toContain("  compact-prep  * skill\n");
});

it("a command given more arguments than it takes refuses them, exit 2, before doing anything", async () => {
  // Every command but install and uninstall, which take any number of hook names (an unknown one is refused).
  const bounded = COMMANDS.map((command) => ({ name: command.name, ...usageSpec(command.usage) })).filter((command) =>
    Number.isFinite(command.maxPositionals),
  );
  expect(bounded.map((command) => command.name).sort()).toEqual(
    ["config", "context", "doctor", "list", "marketplace", "status"].sort(),
  );
  for (const { name, maxPositionals } of bounded) {
    const result = await kit.run(name, ...Array.from({ length: maxPositionals + 1 }, (_, index) => `x${index}`));
    expect(result, name).toMatchObject({
      code: 2,
      out: "",
      err: expect.stringMatching(new RegExp(`^carryover: ${name} takes `)),
    });
  }
});

it("CARRYOVER_DEBUG=1 adds where a failure came from below its one line", async () => {
  kit.env.CARRYOVER_DEBUG = "1";
  const { err } = await kit.run("list", "--from", kit.project);
  expect(err).toMatch(/^carryover: no release manifest at .*\n\w*Error: no release manifest[^\n]*\n\s+at /);
});

it("colours on a terminal only, and none with NO_COLOR set to anything", async () => {
  await kit.run("install", "post-compact");
  kit.tty = true;
  expect((await kit.run("doctor")).out).toContain("\u001b[32m✔\u001b[39m");
  kit.env.NO_COLOR = "1";
  expect((await kit.run("doctor")).out).not.toContain("\u001b[");
  kit.tty = false;
  delete kit.env.NO_COLOR;
  expect((await kit.run("doctor")).out).not.toContain("\u001b[");
});
