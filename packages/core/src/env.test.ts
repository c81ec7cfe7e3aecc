import { homedir, tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { homeDir, isTruthy, tmpDir } from "./env.ts";

describe("env", () => {
  it("homeDir and tmpDir come from the env, else the OS", () => {
    expect(homeDir({ HOME: "/h" })).toBe("/h");
    expect(homeDir({ HOME: "" })).toBe(homedir());
    expect(tmpDir({ TMPDIR: "/t" })).toBe("/t");
    expect(tmpDir({})).toBe(tmpdir());
  });

  it("isTruthy: 1, true, yes, on in any case and padding; everything else is off", () => {
    expect(["1", "true", "TRUE", " yes ", "On"].map(isTruthy)).toEqual([true, true, true, true, true]);
    expect([undefined, "", "0", "false", "off", "no", "2", "truthy"].map(isTruthy)).toEqual(Array(8).fill(false));
  });
});
