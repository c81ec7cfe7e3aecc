import { describe, expect, it } from "vitest";
import { isDebug, isHookEnabled } from "./switches.ts";

describe("isHookEnabled", () => {
  it("is on by default", () => {
    expect(isHookEnabled({}, "pin")).toBe(true);
    expect(isHookEnabled({ CARRYOVER: "1", CARRYOVER_DISABLE: "" }, "pin")).toBe(true);
  });

  it("CARRYOVER=0 (or false, off, no) turns every hook off", () => {
    for (const value of ["0", "false", "OFF", " no "]) expect(isHookEnabled({ CARRYOVER: value }, "pin")).toBe(false);
  });

  it("CARRYOVER_DISABLE names hooks, by name or package name, or all", () => {
    expect(isHookEnabled({ CARRYOVER_DISABLE: "statusline, pin" }, "pin")).toBe(false);
    expect(isHookEnabled({ CARRYOVER_DISABLE: "hook-pin" }, "pin")).toBe(false);
    expect(isHookEnabled({ CARRYOVER_DISABLE: "all" }, "recovery")).toBe(false);
    expect(isHookEnabled({ CARRYOVER_DISABLE: "statusline,pinned" }, "pin")).toBe(true);
    expect(isHookEnabled({ CARRYOVER_DISABLE: "prep" }, "prep-reminder")).toBe(true);
  });
});

describe("isDebug", () => {
  it("is on for any value but empty, 0, false and off", () => {
    expect(["1", "true", "yes", "verbose"].map((value) => isDebug({ CARRYOVER_DEBUG: value }))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([undefined, "", "0", "false", "OFF"].map((value) => isDebug({ CARRYOVER_DEBUG: value }))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
