import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createKit, type Kit } from "../../../test/kit.ts";

let kit: Kit;
beforeEach(() => {
  kit = createKit();
});
afterEach(() => kit.cleanup());

const userConfig = () => join(kit.home, ".claude/carryover/config.json");

it("sets a validated value, reads it back with its source, and --unset removes it", async () => {
  expect(await kit.run("config", "statusline", "color", "never")).toMatchObject({
    code: 0,
    out: "statusline.color = never in ~/.claude/carryover/config.json\n",
  });
  expect(JSON.parse(readFileSync(userConfig(), "utf8"))).toEqual({ statusline: { color: "never" } });
  expect((await kit.run("config", "statusline.color")).out).toBe("never\n");
  const json = JSON.parse((await kit.run("config", "statusline", "color", "--json")).out);
  expect(json).toMatchObject({
    section: "statusline",
    key: "color",
    value: "never",
    default: "auto",
    source: "~/.claude/carryover/config.json",
    env: "CARRYOVER_STATUSLINE_COLOR",
  });
  await kit.run("config", "statusline", "color", "--unset");
  expect(JSON.parse(readFileSync(userConfig(), "utf8"))).toEqual({});
  expect((await kit.run("config", "statusline", "color")).out).toBe("auto\n");
});

it("parses values as env vars are: numbers, booleans, percent lists; shared keys by bare name", async () => {
  await kit.run("config", "levels", "50, 80");
  await kit.run("config", "recovery", "maxChars", "2500");
  await kit.run("config", "pre-compact", "snapshot", "off");
  expect(JSON.parse(readFileSync(userConfig(), "utf8"))).toEqual({
    levels: [50, 80],
    recovery: { maxChars: 2500 },
    "pre-compact": { snapshot: false },
  });
});

it("refuses an invalid value with what it expects, and writes nothing", async () => {
  const result = await kit.run("config", "recovery", "maxChars", "99");
  expect(result).toMatchObject({
    code: 2,
    err: 'carryover: recovery.maxChars: expected a whole number from 500 to 10000, got "99"; nothing was written\n',
  });
  expect(existsSync(userConfig())).toBe(false);
});

it("unknown hook or key: the closest name", async () => {
  expect((await kit.run("config", "recovry")).err).toBe(
    'carryover: unknown hook or key "recovry"; did you mean "recovery"?\n',
  );
  expect((await kit.run("config", "recovery", "maxChar", "1")).err).toBe(
    'carryover: unknown key of recovery "maxChar"; did you mean "maxChars"?\n',
  );
});

it("lists every section with values and sources; the project file and env vars win over the user file", async () => {
  await kit.run("config", "statusline", "color", "never");
  mkdirSync(join(kit.project, ".claude/carryover"), { recursive: true });
  writeFileSync(join(kit.project, ".claude/carryover/config.json"), '{"statusline": {"color": "always"}}');
  await kit.run("config", "statusline", "chainPosition", "before", "--scope", "project");
  const json = JSON.parse((await kit.run("config", "--json")).out);
  expect(Object.keys(json.sections)).toEqual(
    expect.arrayContaining(["shared", "statusline", "recovery", "post-compact"]),
  );
  expect(json.sections.statusline.color).toMatchObject({
    value: "always",
    source: join(kit.project, ".claude/carryover/config.json"),
  });
  expect(json.sections.statusline.chainPosition).toMatchObject({ value: "before" });
  const text = (await kit.run("config", "statusline")).out;
  expect(text).toMatch(/^statusline\n {2}format = /);
  expect(text).toContain(`  color = always (${join(kit.project, ".claude/carryover/config.json")})\n`);
});

it("a malformed config file is one line with file, line and column", async () => {
  mkdirSync(join(kit.home, ".claude/carryover"), { recursive: true });
  writeFileSync(userConfig(), '{"levels": [60,]}');
  const result = await kit.run("config", "levels", "70");
  expect(result.code).toBe(1);
  expect(result.err).toMatch(new RegExp(`^carryover: ${userConfig()}:1:16: invalid JSON`));
  expect(readFileSync(userConfig(), "utf8")).toBe('{"levels": [60,]}');
});

it("refuses what a key cannot mean, shown as typed: a fraction, a relative path, an unknown placeholder", async () => {
  const refused = async (...argv: string[]) => (await kit.run("config", ...argv)).err;
  expect(await refused("pin", "everyTurns", "3.5")).toBe(
    'carryover: pin.everyTurns: expected a whole number from 1 to 1000, got "3.5"; nothing was written\n',
  );
  expect(await refused("levels", "abc")).toBe(
    "carryover: levels: expected a rising list of whole percents from 1 to 100, like [60, 85], " +
      'got "abc"; nothing was written\n',
  );
  expect(await refused("stateDir", "notes/state")).toBe(
    "carryover: stateDir: expected an absolute path or one starting with ~/ (empty: the default), " +
      'got "notes/state"; nothing was written\n',
  );
  const unknownPlaceholder = await refused("statusline", "format", "ctx {percnt}");
  expect(unknownPlaceholder).toMatch(
    /^carryover: statusline\.format: expected a text whose placeholders are among \{percent\} /,
  );
  expect(unknownPlaceholder).toMatch(/, not empty, got "ctx \{percnt\}"; nothing was written\n$/);
  expect(await refused("statusline", "format", "")).toMatch(
    /^carryover: statusline\.format: .*got ""; nothing was written\n$/,
  );
  expect(existsSync(userConfig())).toBe(false);
});

it("keeps levels lowest first, each once, and a path under ~ as one dir from every project", async () => {
  await kit.run("config", "levels", "85, 60, 60");
  await kit.run("config", "stateDir", "~/notes/state");
  expect(JSON.parse(readFileSync(userConfig(), "utf8"))).toEqual({ levels: [60, 85], stateDir: "~/notes/state" });
  expect((await kit.run("config", "stateDir")).out).toBe(`${join(kit.home, "notes/state")}\n`);
  mkdirSync(join(kit.project, "sub"));
  expect((await kit.run("config", "stateDir", "--project", join(kit.project, "sub"))).out).toBe(
    `${join(kit.home, "notes/state")}\n`,
  );
  expect((await kit.run("config", "prep-reminder", "context", "")).code).toBe(0);
});

it("a value in a settings.json env is the one the hooks get: shown with its file, a bad one named there", async () => {
  await kit.run("config", "pin", "everyTurns", "5");
  const projectSettings = join(kit.project, ".claude/settings.json");
  kit.writeSettings(JSON.stringify({ env: { CARRYOVER_PIN_EVERY_TURNS: "7" } }), projectSettings);
  kit.env.CARRYOVER_PIN_EVERY_TURNS = "6";
  const pin = JSON.parse((await kit.run("config", "pin", "everyTurns", "--json")).out);
  expect(pin).toMatchObject({
    value: 7,
    source: `CARRYOVER_PIN_EVERY_TURNS in ${join(kit.project, ".claude/settings.json")} env`,
  });
  expect((await kit.run("config", "pin", "everyTurns", "8")).out).toBe(
    "pin.everyTurns = 8 in ~/.claude/carryover/config.json\n" +
      `note: CARRYOVER_PIN_EVERY_TURNS is set in ${projectSettings} env and overrides the file\n`,
  );
  kit.writeSettings(JSON.stringify({ env: { CARRYOVER_LEVELS: "abc" } }));
  const listed = await kit.run("config", "levels");
  expect(listed).toEqual({
    code: 0,
    out: "[60,85]\n",
    err:
      "warning: ignored, the default stands: CARRYOVER_LEVELS in ~/.claude/settings.json env: levels: " +
      'expected a rising list of whole percents from 1 to 100, like [60, 85], got "abc"\n',
  });
  const all = await kit.run("config");
  expect(all.err).toContain(
    "warning: CARRYOVER_LEVELS in ~/.claude/settings.json env: levels: expected a rising list of whole percents " +
      'from 1 to 100, like [60, 85], got "abc"\n',
  );
});
