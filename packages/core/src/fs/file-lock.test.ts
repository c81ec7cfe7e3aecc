import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureLockDir } from "../claude/paths.ts";
import { withFileLock } from "./file-lock.ts";

let home: string;
let env: { HOME: string };
const locksDir = () => join(home, ".claude/carryover/locks");
const lockDir = () => ensureLockDir(env);

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-lock-"));
  env = { HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function heldLock(pid: number, ageMs = 0): string {
  let path = "";
  withFileLock(lockDir(), "/p/CHANGES_SESSION.md", () => {
    path = join(locksDir(), readdirSync(locksDir())[0]!);
  });
  writeFileSync(path, `${pid} /p/CHANGES_SESSION.md\n`);
  const atS = (Date.now() - ageMs) / 1000;
  utimesSync(path, atS, atS);
  return path;
}

describe("withFileLock", () => {
  it("runs the update, returns its value and removes the lock, also when the update throws", () => {
    expect(withFileLock(lockDir(), "/p/a", () => 42)).toBe(42);
    expect(() =>
      withFileLock(lockDir(), "/p/a", () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(readdirSync(locksDir())).toEqual([]);
  });

  it("waits for a live holder, then gives up with a message naming the file", () => {
    heldLock(process.pid);
    expect(() => withFileLock(lockDir(), "/p/CHANGES_SESSION.md", () => 1, { timeoutMs: 50 })).toThrow(
      expect.objectContaining({
        code: "IO",
        message: expect.stringMatching(/^\/p\/CHANGES_SESSION\.md is being written by another carryover process/),
      }),
    );
    expect(withFileLock(lockDir(), "/p/other", () => "other targets are not held")).toBe("other targets are not held");
  });

  it("takes over a lock whose process is gone, or one held past staleMs", () => {
    const dead = heldLock(2 ** 22 + 12_345);
    expect(withFileLock(lockDir(), "/p/CHANGES_SESSION.md", () => "taken", { timeoutMs: 50 })).toBe("taken");
    expect(existsSync(dead)).toBe(false);
    heldLock(process.pid, 120_000);
    expect(withFileLock(lockDir(), "/p/CHANGES_SESSION.md", () => "taken", { timeoutMs: 50, staleMs: 60_000 })).toBe(
      "taken",
    );
  });

  // Its holder killed between creating it and writing its pid.
  it("takes over a lock left empty once it is a second old", () => {
    const path = heldLock(process.pid);
    writeFileSync(path, "");
    expect(() => withFileLock(lockDir(), "/p/CHANGES_SESSION.md", () => 1, { timeoutMs: 50 })).toThrow(
      expect.objectContaining({ code: "IO" }),
    );
    const atS = (Date.now() - 2_000) / 1000;
    utimesSync(path, atS, atS);
    expect(withFileLock(lockDir(), "/p/CHANGES_SESSION.md", () => "taken", { timeoutMs: 50 })).toBe("taken");
  });
});
