import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkConfigValue, configEnvName, configKeyLabel, loadConfig } from "./load.ts";
import { SHARED_KEYS } from "./shared.ts";
import { type ConfigTable, defaultsOf } from "./table.ts";

// A hook's table, as a hook package keeps one: section "pin".
const PIN = {
  everyTurns: { kind: "number", default: 1, min: 1, max: 1000, description: "every N prompts" },
  maxBytes: { kind: "number", default: 8000, min: 100, max: 9000, description: "cap" },
} as const satisfies ConfigTable;
const STATUSLINE = {
  format: { kind: "string", default: "ctx", description: "the line" },
  color: { kind: "enum", default: "auto", values: ["auto", "always", "never"], description: "colour" },
  chainTimeoutMs: { kind: "number", default: 1000, min: 50, max: 10_000, description: "chain timeout" },
} as const satisfies ConfigTable;

let home: string;
let project: string;
let userFile: string;
let projectFile: string;

function write(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value, null, 2));
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-config-"));
  project = join(home, "proj");
  userFile = join(home, ".claude/carryover/config.json");
  projectFile = join(project, ".claude/carryover/config.json");
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("loadConfig without any config", () => {
  it("loads the hook's defaults and the shared ones with no problem", () => {
    const config = loadConfig("pin", PIN, { HOME: home }, project);
    expect(config).toEqual({ hook: { everyTurns: 1, maxBytes: 8000 }, shared: defaultsOf(SHARED_KEYS), problems: [] });
  });
});

describe("layers", () => {
  it("user file, then project file, then env vars, key by key", () => {
    write(userFile, { levels: [50, 75], pin: { everyTurns: 3, maxBytes: 500 } });
    write(projectFile, { pin: { everyTurns: 5 } });
    const env = { HOME: home, CARRYOVER_PIN_MAX_BYTES: "900" };
    const config = loadConfig("pin", PIN, env, project);
    expect(config.problems).toEqual([]);
    expect(config.shared.levels).toEqual([50, 75]);
    expect(config.hook).toEqual({ everyTurns: 5, maxBytes: 900 });
  });

  it("reads no project layer without a project dir", () => {
    write(projectFile, { pin: { everyTurns: 5 } });
    expect(loadConfig("pin", PIN, { HOME: home }).hook.everyTurns).toBe(1);
  });

  it("reads the user file under CLAUDE_CONFIG_DIR when set", () => {
    write(join(home, "alt/carryover/config.json"), { levels: [40] });
    expect(loadConfig("", {}, { HOME: home, CLAUDE_CONFIG_DIR: join(home, "alt") }).shared.levels).toEqual([40]);
  });

  it('the shared section is both shared and hook for section ""', () => {
    write(userFile, { changesFile: "" });
    const config = loadConfig("", {}, { HOME: home });
    expect(config.hook).toEqual(config.shared);
    expect(config.shared.changesFile).toBe("");
  });
});

describe("problems: one line each, naming where and which key; the value below stands", () => {
  it("a bad value in a file", () => {
    write(userFile, { levels: [50, 75] });
    write(projectFile, { levels: "many", freshReadingMs: 10_000, pin: { everyTurns: 0 } });
    const config = loadConfig("pin", PIN, { HOME: home }, project);
    expect(config.shared.levels).toEqual([50, 75]);
    expect(config.shared.freshReadingMs).toBe(10_000);
    expect(config.hook.everyTurns).toBe(1);
    expect(config.problems).toEqual([
      `${projectFile}: levels: expected a rising list of whole percents from 1 to 100, like [60, 85], got "many"`,
      `${projectFile}: pin.everyTurns: expected a whole number from 1 to 1000, got 0`,
    ]);
  });

  it("a bad env var shows what was typed", () => {
    write(userFile, { pin: { everyTurns: 3 } });
    const config = loadConfig(
      "pin",
      PIN,
      { HOME: home, CARRYOVER_PIN_EVERY_TURNS: "abc", CARRYOVER_LEVELS: "60,200" },
      project,
    );
    expect(config.hook.everyTurns).toBe(3);
    expect(config.shared.levels).toEqual([60, 85]);
    expect(config.problems).toEqual([
      'CARRYOVER_LEVELS: levels: expected a rising list of whole percents from 1 to 100, like [60, 85], got "60,200"',
      `CARRYOVER_PIN_EVERY_TURNS: pin.everyTurns: expected a whole number from 1 to 1000, got "abc"`,
    ]);
  });

  it("a path under the home is one dir from every project, from a file and from the env alike", () => {
    write(userFile, { stateDir: "~/notes/state" });
    expect(loadConfig("", {}, { HOME: home }, project).shared.stateDir).toBe(join(home, "notes/state"));
    const fromEnv = loadConfig("", {}, { HOME: home, CARRYOVER_STATE_DIR: "~/elsewhere" }, project);
    expect(fromEnv.shared.stateDir).toBe(join(home, "elsewhere"));
    write(userFile, { stateDir: "notes/state" });
    const relative = loadConfig("", {}, { HOME: home }, project);
    expect(relative.shared.stateDir).toBe("");
    expect(relative.problems).toEqual([
      `${userFile}: stateDir: expected an absolute path or one starting with ~/ (empty: the default), ` +
        'got "notes/state"',
    ]);
  });

  it("malformed JSON names file:line:column, and the other layers still apply", () => {
    write(userFile, { levels: [50] });
    write(projectFile, '{\n  "levels": [70],\n  "pin": { "everyTurns": 2, }\n}\n');
    const config = loadConfig("pin", PIN, { HOME: home }, project);
    expect(config.shared.levels).toEqual([50]);
    expect(config.hook.everyTurns).toBe(1);
    expect(config.problems).toEqual([`${projectFile}:3:29: invalid JSON: Expected double-quoted property name`]);
  });

  it("a file that is not a JSON object", () => {
    write(userFile, "[60, 85]");
    expect(loadConfig("", {}, { HOME: home }).problems).toEqual([`${userFile}: expected a JSON object`]);
    write(userFile, "null");
    expect(loadConfig("", {}, { HOME: home }).problems).toEqual([`${userFile}: expected a JSON object`]);
  });

  it("every problem is a single line", () => {
    write(userFile, '{\n"levels": [60,\n\n}');
    write(projectFile, { statusline: { format: "x".repeat(3000), color: "\n" } });
    const config = loadConfig(
      "statusline",
      STATUSLINE,
      { HOME: home, CARRYOVER_STATUSLINE_CHAIN_TIMEOUT_MS: "1\n2" },
      project,
    );
    expect(config.problems.length).toBe(4);
    for (const problem of config.problems) expect(problem).not.toMatch(/\n/);
  });
});

describe("names", () => {
  it("env var names and labels", () => {
    expect(configEnvName("", "levels")).toBe("CARRYOVER_LEVELS");
    expect(configEnvName("", "freshReadingMs")).toBe("CARRYOVER_FRESH_READING_MS");
    expect(configEnvName("prep-reminder", "mutedLevels")).toBe("CARRYOVER_PREP_REMINDER_MUTED_LEVELS");
    expect(configEnvName("statusline", "chainTimeoutMs")).toBe("CARRYOVER_STATUSLINE_CHAIN_TIMEOUT_MS");
    expect(configKeyLabel("", "levels")).toBe("levels");
    expect(configKeyLabel("pin", "everyTurns")).toBe("pin.everyTurns");
  });

  it("checkConfigValue answers null for a good value and names an unknown key", () => {
    expect(checkConfigValue(PIN, "pin", "everyTurns", 4)).toBeNull();
    expect(checkConfigValue(PIN, "pin", "everyTurn", 4)).toBe("unknown key pin.everyTurn");
  });
});
