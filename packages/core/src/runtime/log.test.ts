import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { logLine } from "./log.ts";

const KIB = 1024;
let home: string;
let logDir: string;
let logFile: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-log-"));
  logDir = join(home, ".claude/carryover/log");
  logFile = join(logDir, "carryover.log");
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("logLine", () => {
  it("writes beside ~/.claude/carryover when that root is refused (a link to a dir others can write)", () => {
    const target = join(home, "dotfiles/carryover");
    mkdirSync(target, { recursive: true, mode: 0o777 });
    chmodSync(target, 0o777);
    mkdirSync(join(home, ".claude"));
    symlinkSync(target, join(home, ".claude/carryover"));
    logLine({ HOME: home }, "recovery", "refusing it", Date.UTC(2026, 10, 29, 17, 0, 0));
    expect(readFileSync(join(home, ".claude/carryover.log"), "utf8")).toBe(
      "2026-11-29T17:00:00.000Z recovery: refusing it\n",
    );
    expect(readdirSync(target)).toEqual([]);
  });

  it("appends one dated line per call, naming the hook, in a private dir", () => {
    logLine({ HOME: home }, "pin", "first", Date.UTC(2026, 10, 29, 17, 0, 0));
    logLine({ HOME: home }, "recovery", "second", Date.UTC(2026, 10, 29, 17, 0, 1));
    expect(readFileSync(logFile, "utf8")).toBe(
      "2026-11-29T17:00:00.000Z pin: first\n2026-11-29T17:00:01.000Z recovery: second\n",
    );
    expect(statSync(logDir).mode & 0o777).toBe(0o700);
    expect(statSync(logFile).mode & 0o777).toBe(0o600);
  });

  it("folds a multi-line message into one line and cuts it at 2,000 characters", () => {
    logLine({ HOME: home }, "pin", "a\n  b\r\nc", 0);
    logLine({ HOME: home }, "pin", "x".repeat(5_000), 0);
    const lines = readFileSync(logFile, "utf8").split("\n");
    expect(lines[0]).toBe("1970-01-01T00:00:00.000Z pin: a b c");
    expect(lines[1]).toHaveLength(2_000);
    expect(lines).toHaveLength(3);
  });

  it("rotates past 256 KiB to carryover.log.1, so the log never holds more than twice that", () => {
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
    const old = `${"o".repeat(256 * KIB - 1)}\n`;
    writeFileSync(logFile, old);
    logLine({ HOME: home }, "pin", "at the limit", 0);
    expect(readdirSync(logDir)).toEqual(["carryover.log"]);
    logLine({ HOME: home }, "pin", "past it", 0);
    expect(readdirSync(logDir).sort()).toEqual(["carryover.log", "carryover.log.1"]);
    expect(readFileSync(join(logDir, "carryover.log.1"), "utf8")).toBe(
      `${old}1970-01-01T00:00:00.000Z pin: at the limit\n`,
    );
    expect(readFileSync(logFile, "utf8")).toBe("1970-01-01T00:00:00.000Z pin: past it\n");
  });

  it("a second rotation replaces the previous .1", () => {
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(logDir, "carryover.log.1"), "oldest\n");
    writeFileSync(logFile, "o".repeat(256 * KIB + 1));
    logLine({ HOME: home }, "pin", "new", 0);
    expect(readFileSync(join(logDir, "carryover.log.1"), "utf8")).toBe("o".repeat(256 * KIB + 1));
  });

  it("never throws: an unusable home, a symlinked log dir or log file", () => {
    writeFileSync(join(home, "file"), "");
    expect(() => logLine({ HOME: join(home, "file") }, "pin", "x")).not.toThrow();

    mkdirSync(join(home, ".claude/carryover"), { recursive: true, mode: 0o700 });
    mkdirSync(join(home, "elsewhere"));
    symlinkSync(join(home, "elsewhere"), logDir);
    expect(() => logLine({ HOME: home }, "pin", "x")).not.toThrow();
    expect(readdirSync(join(home, "elsewhere"))).toEqual([]);
  });

  it("does not append through a symlink at the log file", () => {
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(home, "victim"), "keep me");
    symlinkSync(join(home, "victim"), logFile);
    logLine({ HOME: home }, "pin", "x");
    expect(readFileSync(join(home, "victim"), "utf8")).toBe("keep me");
  });
});
